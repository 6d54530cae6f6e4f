package engine

import (
	"crypto/sha256"
	"encoding/json"
	"sync"
	"time"

	"github.com/mcpdeck/mcpdeck/engine/lock"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/cache"
)

// RememberedLists are a server's tools, prompts, resources and templates
// as last seen live (Options.RememberLists): in this run, or, with
// Earlier, in an earlier one, read from the cache directory and not yet
// listed live again. They passed the same cleaning and marking as live
// lists (cleanTool…, listParts.mark), so a tool the person's rules deny is
// Denied here too. Like every snapshot slice they are shared: read-only.
type RememberedLists struct {
	Earlier   bool
	At        time.Time // when they were seen live
	Tools     []Tool
	Prompts   []Prompt
	Resources []Resource
	Templates []ResourceTemplate
}

// rememberedOnDisk is the lists' encoding in the cache (cache.RememberedLists.Lists):
// what a server sent, without what this engine works out again on reading
// (exposed names, denials, collisions).
type rememberedOnDisk struct {
	Tools     []Tool             `json:"tools,omitempty"`
	Prompts   []Prompt           `json:"prompts,omitempty"`
	Resources []Resource         `json:"resources,omitempty"`
	Templates []ResourceTemplate `json:"templates,omitempty"`
}

// memoryParts keeps each server's remembered lists: read from the cache
// directory when a definition is loaded, replaced by every live list, and
// written back after each change, one write at a time.
type memoryParts struct {
	e *Engine
	// writeMu orders writes (taken before e.mu, never under it), so an
	// older list never lands after a newer one.
	writeMu sync.Mutex
}

// memoryState is what memoryParts keeps per server, guarded by e.mu.
type memoryState struct {
	lists *RememberedLists // nil: nothing known of this definition
	seq   uint64           // counts changes of lists by live lists
	// written is the seq in the file; digest (of the lists' encoding) and
	// at (their time) what the file holds.
	written uint64
	digest  [sha256.Size]byte
	at      time.Time
}

// rewriteAfter is how old the file may grow while the lists stay the same
// before it is written again, so lists in daily use never reach
// cache.ListsTTL.
const rewriteAfter = 24 * time.Hour

// on reports whether lists are remembered at all.
func (m *memoryParts) on() bool { return m.e.opts.RememberLists }

// preload reads the remembered lists of servers (those new, or whose
// definition changed), outside e.mu: files, decoded and cleaned, by name.
func (m *memoryParts) preload(servers []model.Server) map[string]preloadedLists {
	if !m.on() {
		return nil
	}
	out := map[string]preloadedLists{}
	now := time.Now()
	for _, srv := range servers {
		r, ok := cache.ReadLists(m.e.opts.CacheDir, srv.Hash, now)
		if !ok {
			continue
		}
		var d rememberedOnDisk
		if json.Unmarshal(r.Lists, &d) != nil {
			continue
		}
		out[srv.Name] = preloadedLists{hash: srv.Hash, at: r.At, digest: sha256.Sum256(r.Lists), lists: cleanRemembered(srv.Name, d)}
	}
	return out
}

// preloadedLists are one definition's lists as read from the cache.
type preloadedLists struct {
	hash   string
	at     time.Time
	digest [sha256.Size]byte
	lists  lists
}

// cleanRemembered passes lists read from the cache through the cleaning
// live lists pass, bounded as a live list is.
func cleanRemembered(server string, d rememberedOnDisk) lists {
	var l lists
	for k := range numLists {
		l.fetched[k] = k != listSkills
	}
	for _, t := range d.Tools[:min(len(d.Tools), maxListItems)] {
		l.tools = append(l.tools, cleanTool(server, Tool{
			Name: t.Name, Title: t.Title, Description: t.Description, InputSchema: t.InputSchema,
			ReadOnly: t.ReadOnly, Destructive: t.Destructive, OpenWorld: t.OpenWorld,
			Withheld: t.Withheld, // withheld when last seen stays withheld until a live list is judged
		}))
	}
	for _, p := range d.Prompts[:min(len(d.Prompts), maxListItems)] {
		l.prompts = append(l.prompts, cleanPrompt(p))
	}
	for _, r := range d.Resources[:min(len(d.Resources), maxListItems)] {
		l.resources = append(l.resources, cleanResource(r))
	}
	for _, t := range d.Templates[:min(len(d.Templates), maxListItems)] {
		l.templates = append(l.templates, cleanTemplate(t))
	}
	return l
}

// configuredLocked gives en, whose definition was just stored, the lists
// remembered for it: those preloaded when its definition is new or
// changed (oldHash, "" for a new entry), marked (denied tools) and masked
// as live lists are. An unchanged definition keeps what it has. Callers
// hold e.mu.
func (m *memoryParts) configuredLocked(en *entry, oldHash string, pre map[string]preloadedLists) {
	if !m.on() || (oldHash != "" && oldHash == en.srv.Hash) {
		return
	}
	en.memory = memoryState{}
	p, ok := pre[en.srv.Name]
	if !ok || p.hash != en.srv.Hash {
		return
	}
	l := p.lists
	m.e.lists.mark(&l)
	maskTexts(en.mask, &l)
	en.memory = memoryState{
		lists:  &RememberedLists{Earlier: true, At: p.at, Tools: l.tools, Prompts: l.prompts, Resources: l.resources, Templates: l.templates},
		digest: p.digest, at: p.at,
	}
}

// listedLocked remembers en's live lists after they changed. Callers hold
// e.mu; flush writes them once it is released.
func (m *memoryParts) listedLocked(en *entry) {
	if !m.on() {
		return
	}
	l := en.lists
	en.memory.lists = &RememberedLists{At: time.Now(), Tools: l.tools, Prompts: l.prompts, Resources: l.resources, Templates: l.templates}
	en.memory.seq++
}

// permittedLocked re-flags the denied tools of en's remembered lists after
// the rules changed (permitted decides, as for live lists). Callers hold
// e.mu.
func (m *memoryParts) permittedLocked(en *entry) {
	l := en.memory.lists
	if l == nil {
		return
	}
	if t, changed := m.e.lists.permitted(l.Tools); changed {
		c := *l
		c.Tools = t
		en.memory.lists = &c
	}
}

// flush writes server's remembered lists to the cache when live lists
// changed them since the last write. Callers do not hold e.mu. A failed
// write costs only the next start's wait, so it is logged, not reported.
// It writes after Close began, too (entry, not ifEntry): a connection
// whose lists were published just before is what `mcpdeck serve` just
// answered from, and a client that got its answer stops serve at once.
// Close waits for the goroutines that flush (e.wg).
func (m *memoryParts) flush(server string) {
	if !m.on() {
		return
	}
	lock.With(&m.writeMu, func() {
		var l *RememberedLists
		var hash string
		var seq uint64
		var digest [sha256.Size]byte
		var at time.Time
		m.entry(server, func(en *entry) {
			if en.memory.lists != nil && en.memory.seq != en.memory.written {
				l, hash, seq, digest, at = en.memory.lists, en.srv.Hash, en.memory.seq, en.memory.digest, en.memory.at
			}
		})
		if l == nil || hash == "" {
			return
		}
		b, err := json.Marshal(onDisk(l))
		if err != nil {
			m.e.log.Debug("remembered lists", "server", server, "err", err)
			return
		}
		sum := sha256.Sum256(b)
		same := sum == digest && l.At.Sub(at) < rewriteAfter
		if !same {
			err = cache.WriteLists(m.e.opts.CacheDir, cache.RememberedLists{Hash: hash, At: l.At, Lists: b}, time.Now())
		}
		if err != nil {
			m.e.log.Debug("remembered lists", "server", server, "err", err)
		}
		m.entry(server, func(en *entry) {
			if en.srv.Hash != hash || en.memory.written > seq {
				return
			}
			en.memory.written = seq
			if err == nil && !same {
				en.memory.digest, en.memory.at = sum, l.At
			}
		})
	})
}

// entry runs f with server's entry under e.mu, closed or not.
func (m *memoryParts) entry(server string, f func(en *entry)) {
	m.e.locked(func() {
		if en := m.e.byName[server]; en != nil {
			f(en)
		}
	})
}

// onDisk is l as the cache keeps it.
func onDisk(l *RememberedLists) rememberedOnDisk {
	d := rememberedOnDisk{Prompts: l.Prompts, Resources: l.Resources, Templates: l.Templates}
	d.Tools = make([]Tool, len(l.Tools))
	for i, t := range l.Tools {
		t.ExposedName, t.Denied, t.Collision = "", false, ""
		d.Tools[i] = t
	}
	return d
}
