package engine

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"

	"github.com/mcpdeck/mcpdeck/engine/lock"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/pins"
	"github.com/mcpdeck/mcpdeck/model/private"
	"github.com/mcpdeck/mcpdeck/model/scan"
)

// ErrWithheld refuses a tool or prompt that is new or changed since the
// person accepted the server's tools, until they review it.
var ErrWithheld = errors.New("withheld until you review it")

// pinParts pins what each server tells a model (model/pins): at the first
// listing after the server may run it records every item; a later listing
// that differs, or one that differs from the repository's lock file,
// withholds the new and changed items (marked on the lists, refused by
// calls, left out by serve) until the person accepts them (AcceptPins).
type pinParts struct {
	e *Engine
	// writeMu serializes writes of pins files; held without e.mu.
	writeMu sync.Mutex
	// pending are the records to write, by path (guarded by e.mu): a
	// writer writes the latest, so two writes never land out of order.
	pending map[string]pendingPins
}

type pendingPins struct {
	server string
	rec    *pins.Record
	mask   func(string) string // the server's masker: texts are saved masked
}

// pinState is what pins keep per server.
type pinState struct {
	path         string       // the definition's pins file ("" = kept in memory only)
	record       *pins.Record // the person's pins; nil until the first listing
	lock         *pins.LockServer
	lockFile     string
	lockProblems []string
	off, note    string // config.PinsOff
	// The live connection's items, by list, its instructions, the kinds
	// listed and the scan's findings by kind.
	items        [numLists][]pins.Item
	instructions *pins.Item
	listed       map[pins.Kind]bool
	findings     map[pins.Kind][]scan.Finding
	// scanning counts the scans under way (scanLocked); epoch changes
	// when the connection's lists are forgotten, so a late scan is
	// dropped.
	scanning int
	epoch    uint64
	report   PinReport // what snapshots show, rebuilt by decideLocked
}

// forget drops what the connection listed.
func (s *pinState) forget() {
	s.items, s.instructions, s.listed, s.findings = [numLists][]pins.Item{}, nil, nil, nil
	s.scanning, s.epoch = 0, s.epoch+1
	s.report = PinReport{Off: s.off, Note: s.note, LockFile: s.lockFile, LockProblems: s.lockProblems}
}

// current is every item of the live listing.
func (s *pinState) current() []pins.Item {
	pl := pinLists{items: s.items, instructions: s.instructions}
	return pl.allItems()
}

// listedLocked takes a fetch's items, decides again and has them
// scanned. Callers hold e.mu.
func (p *pinParts) listedLocked(en *entry, l lists) {
	s := &en.pins
	if s.listed == nil {
		s.listed, s.findings = map[pins.Kind]bool{}, map[pins.Kind][]scan.Finding{}
	}
	took := map[pins.Kind]bool{}
	for k := range numLists {
		if kind, ok := kindOf(k); ok && l.fetched[k] {
			s.items[k], s.listed[kind], took[kind] = l.pinned.items[k], true, true
		}
	}
	if l.pinned.instructionsSeen {
		s.instructions, s.listed[pins.KindInstructions], took[pins.KindInstructions] = l.pinned.instructions, true, true
	}
	p.decideLocked(en)
	p.scanLocked(en, took)
}

// scanLocked scans the items of the kinds just listed in the background
// (the scan is for the person to read; what is withheld is decided
// already), then shows its findings, masked. The report says Scanning
// meanwhile. Callers hold e.mu.
func (p *pinParts) scanLocked(en *entry, kinds map[pins.Kind]bool) {
	e, s := p.e, &en.pins
	if e.closed || len(kinds) == 0 {
		return
	}
	var items []pins.Item
	for _, it := range s.current() {
		if kinds[it.Kind] {
			items = append(items, it)
		}
	}
	s.scanning++
	s.report.Scanning = true
	name, mask, epoch := en.srv.Name, en.mask, s.epoch
	e.wg.Go(func() {
		found := scan.Server(name, items, scan.Context{Tools: p.offeredBy})
		for i := range found {
			found[i].Message, found[i].Excerpt = mask.Mask(found[i].Message), mask.Mask(found[i].Excerpt)
		}
		e.locked(func() { p.scannedLocked(name, en, epoch, kinds, found) })
	})
}

// scannedLocked shows a scan's findings, unless the connection it scanned
// is gone. Callers hold e.mu.
func (p *pinParts) scannedLocked(name string, en *entry, epoch uint64, kinds map[pins.Kind]bool, found []scan.Finding) {
	e, s := p.e, &en.pins
	if e.byName[name] != en || s.epoch != epoch {
		return
	}
	s.scanning--
	for kind := range kinds {
		s.findings[kind] = nil
	}
	for _, f := range found {
		s.findings[f.Kind] = append(s.findings[f.Kind], f)
	}
	s.report.Findings, s.report.Scanning = s.allFindings(), s.scanning > 0
	e.publishLocked()
}

// allFindings are the findings of every kind, in the kinds' order.
func (s *pinState) allFindings() []scan.Finding {
	var out []scan.Finding
	for _, kind := range pins.Kinds {
		out = append(out, s.findings[kind]...)
	}
	return out
}

// decideLocked compares the live listing with the pins and the lock file,
// pins a first listing, and marks what is withheld. Callers hold e.mu.
func (p *pinParts) decideLocked(en *entry) {
	s := &en.pins
	cur := s.current()
	rep := PinReport{
		Off: s.off, Note: s.note, LockFile: s.lockFile, LockProblems: s.lockProblems, Items: cur, Listed: s.listed,
		Findings: s.allFindings(), Scanning: s.scanning > 0,
	}
	if s.off == "" && len(s.listed) > 0 {
		if s.record == nil {
			rec := pins.First(cur)
			s.record = &rec
			p.saveLocked(en)
		}
		rep.Changes = maskedChanges(pins.Compare(s.record, cur, s.listed, s.lock), en.mask.Mask)
	}
	s.report = rep
	p.e.lists.withholdLocked(en)
}

// maskedChanges are changes with the texts of their items masked (the
// server's own secrets never reach a snapshot), each item a copy.
func maskedChanges(changes []pins.Change, mask func(string) string) []pins.Change {
	for i := range changes {
		c := &changes[i]
		if c.Old != nil {
			it := masked(*c.Old, mask)
			c.Old = &it
		}
		if c.New != nil {
			it := masked(*c.New, mask)
			c.New = &it
		}
	}
	return changes
}

// saveLocked writes en's record in the background. Callers hold e.mu.
func (p *pinParts) saveLocked(en *entry) {
	if en.pins.path == "" || p.e.closed { // closed: the next listing pins again
		return
	}
	path := en.pins.path
	p.pending[path] = pendingPins{server: en.srv.Name, rec: en.pins.record, mask: en.mask.Mask}
	p.e.wg.Go(func() {
		if err := p.flush(path); err != nil {
			p.e.log.Warn("saving pins", "server", en.srv.Name, "err", err)
		}
	})
}

// flush writes the latest record pending for path, if any.
func (p *pinParts) flush(path string) (err error) {
	lock.With(&p.writeMu, func() {
		var w pendingPins
		ok := false
		p.e.locked(func() {
			if w, ok = p.pending[path]; ok {
				delete(p.pending, path)
			}
		})
		if ok {
			rec := pins.Record{Items: make([]pins.Item, len(w.rec.Items))}
			for i, it := range w.rec.Items {
				rec.Items[i] = masked(it, w.mask)
			}
			err = private.WritePins(path, w.server, rec)
		}
	})
	return err
}

// withheldError is the refusal of a withheld item, naming how to review
// it.
func withheldError(server string, kind pins.Kind, name string, st pins.Status) error {
	var why string
	switch st {
	case pins.StatusNew:
		why = "is new since you approved " + server
	case pins.StatusLock:
		why = "differs from the repository's lock file (" + pins.LockFileName + ")"
	default:
		why = "changed since you approved it"
	}
	msg := fmt.Sprintf("%s %s of %s %s; review it: mcpdeck mcp review %s", kind, name, server, why, server)
	return &CallError{Message: msg, Err: ErrWithheld}
}

// pinPre is what a reload reads for pins before it takes e.mu.
type pinPre struct {
	path         string
	record       *pins.Record
	lock         *pins.LockServer
	lockFile     string
	lockProblems []string
	off, note    string
}

// preload reads each server's pins file and the lock file beside the
// project file that defines it; callers do not hold e.mu.
func (p *pinParts) preload(res *config.Resolved, servers []model.Server) map[string]pinPre {
	out := make(map[string]pinPre, len(servers))
	locks := map[string]lockRead{}
	for _, srv := range servers {
		var pre pinPre
		pre.off, pre.note = config.PinsOff(srv, res.ForcePins)
		pre.path = private.PinsPath(p.e.opts.Load.ConfigDir, srv.Hash)
		rec, err := private.ReadPins(pre.path)
		if err != nil {
			p.e.log.Warn("reading pins", "server", srv.Name, "err", err)
		}
		pre.record = rec
		if srv.Scope == model.ScopeProject && filepath.IsAbs(srv.Source) {
			path := filepath.Join(filepath.Dir(srv.Source), pins.LockFileName)
			lr, seen := locks[path]
			if !seen {
				lr = readLock(path)
				locks[path] = lr
			}
			if lr.lock != nil && lr.lock.Servers[srv.Name] != nil {
				pre.lock, pre.lockFile = lr.lock.Servers[srv.Name], path
			}
			if lr.exists {
				pre.lockProblems = lr.problems
			}
		}
		out[srv.Name] = pre
	}
	return out
}

// lockRead is one lock file as read.
type lockRead struct {
	lock     *pins.Lock
	problems []string
	exists   bool
}

func readLock(path string) lockRead {
	l, probs, err := pins.ReadLock(path)
	if err != nil {
		return lockRead{problems: []string{err.Error()}, exists: true}
	}
	return lockRead{lock: l, problems: probs, exists: l != nil || len(probs) > 0}
}

// reloadedLocked applies what a reload read. Callers hold e.mu.
func (p *pinParts) reloadedLocked(en *entry, pre pinPre) {
	s := &en.pins
	if s.path != pre.path { // another definition: what was listed belongs to the old one
		s.forget()
		s.record = nil
	}
	s.path = pre.path
	if _, writing := p.pending[pre.path]; !writing || s.record == nil {
		s.record = pre.record
	}
	s.lock, s.lockFile, s.lockProblems = pre.lock, pre.lockFile, pre.lockProblems
	s.off, s.note = pre.off, pre.note
	p.decideLocked(en)
}

// filesLocked are the pins and lock files in force, which the config
// watcher watches too: an acceptance in another mcpdeck, or a pulled lock
// file, takes effect here. Callers hold e.mu.
func (p *pinParts) filesLocked() []string {
	var out []string
	for _, en := range p.e.order {
		if en.pins.path != "" {
			out = append(out, en.pins.path)
		}
		if en.srv.Scope == model.ScopeProject && filepath.IsAbs(en.srv.Source) {
			out = append(out, filepath.Join(filepath.Dir(en.srv.Source), pins.LockFileName))
		}
	}
	return out
}

// AcceptPins accepts what server now tells a model: the changed, new and
// removed items named (tools, prompts and templates by name,
// "instructions" for the instructions), or every change when names is
// empty. Accepted items are pinned as listed and no longer withheld; serve
// then offers them. The pins file is written before it returns.
func (e *Engine) AcceptPins(_ context.Context, server string, names []string) error {
	var path string
	err := e.withEntry(server, func(en *entry) (err error) {
		path, err = e.pins.acceptLocked(en, names)
		return err
	})
	if err != nil || path == "" {
		return err
	}
	return e.pins.flush(path)
}

// acceptLocked records the acceptance (AcceptPins) in memory, publishes it
// and returns the pins file to write ("" for none). Callers hold e.mu.
func (p *pinParts) acceptLocked(en *entry, names []string) (string, error) {
	s, server := &en.pins, en.srv.Name
	switch {
	case s.off != "":
		return "", fmt.Errorf("server %s is not pinned (%s): nothing to accept", server, s.off)
	case len(s.listed) == 0:
		return "", fmt.Errorf("%w: %s has listed nothing yet to accept", ErrNotConnected, server)
	}
	take, err := acceptSet(server, s.report.Changes, names)
	if err != nil {
		return "", err
	}
	rec := pins.Accept(s.record, s.current(), s.listed, func(k pins.Kind, n string) bool { return take[pinKey{k, n}] })
	s.record = &rec
	p.decideLocked(en)
	p.e.publishLocked()
	if s.path != "" {
		p.pending[s.path] = pendingPins{server: server, rec: s.record, mask: en.mask.Mask}
	}
	return s.path, nil
}

type pinKey struct {
	kind pins.Kind
	name string
}

// acceptSet is the changes names picks (all when it is empty); a name
// that is no change is an error naming the changes there are.
func acceptSet(server string, changes []pins.Change, names []string) (map[pinKey]bool, error) {
	take := map[pinKey]bool{}
	for _, c := range changes {
		if len(names) == 0 || slices.Contains(names, c.Name) || c.Kind == pins.KindInstructions && slices.Contains(names, "instructions") {
			take[pinKey{c.Kind, c.Name}] = true
		}
	}
	if len(changes) == 0 {
		return nil, fmt.Errorf("nothing of %s changed since you accepted it", server)
	}
	for _, n := range names {
		found := false
		for k := range take {
			found = found || k.name == n || n == "instructions" && k.kind == pins.KindInstructions
		}
		if !found {
			var have []string
			for _, c := range changes {
				have = append(have, c.Name)
			}
			return nil, fmt.Errorf("%w: %s has no change named %q (changed: %v)", model.ErrInvalid, server, n, have)
		}
	}
	return take, nil
}
