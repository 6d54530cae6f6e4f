package engine

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/mcpdeck/mcpdeck/engine/filewatch"
	"github.com/mcpdeck/mcpdeck/engine/lifecycle"
	"github.com/mcpdeck/mcpdeck/engine/lock"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/imports"
	"github.com/mcpdeck/mcpdeck/model/launch"
	"github.com/mcpdeck/mcpdeck/model/sandbox"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// configParts reloads the configuration and keeps the person's choices
// about servers: enable, disable, approve, reject, deny a tool, the
// sampling decision (choices.go), and the config watcher (watch.go).
type configParts struct {
	e        *Engine
	reloadMu sync.Mutex // serializes reloads (held before e.mu)
	// Guarded by e.mu:
	watch  *filewatch.Watcher
	overEn map[string]bool // enable/disable of Extra servers, in memory
	// overSampling is the sampling decision on Extra servers, in memory.
	overSampling map[string]model.SamplingDecision
	// ides are the editors' servers of the configuration in force
	// (engine/idefind), and ignoredLocks the notices of the lock files the
	// last scan ignored (published as warnings).
	ides         []model.Server
	ignoredLocks []string
	// unimported are the servers Claude Code keeps in ~/.claude.json that
	// the configuration in force does not define (nil: none).
	unimported *imports.Unimported
}

func newConfigParts(e *Engine) *configParts {
	return &configParts{e: e, overEn: map[string]bool{}, overSampling: map[string]model.SamplingDecision{}}
}

// shownDefinition is the definition as snapshots show it, worked out
// once per reload.
type shownDefinition struct {
	transport model.Transport
	config    model.ServerConfig // as written, redacted (model.Redact)
	// written is the definition exactly as written, only for a project
	// server awaiting approval (ServerSnapshot.Written).
	written *model.ServerConfig
	runsIn  string // redacted
	target  string // the command line or URL, redacted
	// sandbox is what the sandbox of a server awaiting approval would
	// open (ServerSnapshot.Sandbox).
	sandbox *sandbox.View
}

// Reload reads the configuration again and reconciles: new servers start,
// removed ones close, and only servers whose config hash changed restart.
func (e *Engine) Reload(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	var err error
	// One reload at a time, so an older load never overwrites a newer one.
	lock.With(&e.config.reloadMu, func() { err = e.config.reload() })
	return err
}

// reload loads, then applies what lifecycle.Reconcile decides; callers
// hold reloadMu.
func (c *configParts) reload() error {
	e := c.e
	opts := e.opts.Load
	// The configuration in force: a file broken mid-edit keeps the servers
	// it gave, running as they were (LoadOptions.Previous).
	e.locked(func() { opts.Previous = e.res })
	res, err := e.load(opts)
	if err != nil {
		return fmt.Errorf("loading configuration: %w", err)
	}
	var ides []model.Server
	var ignored []string
	if !res.Enterprise { // managed configuration allows only its own servers
		ides, ignored = e.ide.Servers(e.opts.Load.Cwd, c.takenBy(res))
	}
	unimported := imports.ClaudeCodeUnimported(imports.Env{Home: opts.Home, Cwd: opts.Cwd}, func(name string) bool { _, ok := res.Server(name); return ok })
	var desired, fresh []model.Server
	e.locked(func() {
		desired = c.desiredLocked(res, ides)
		fresh = c.freshLocked(desired)
		c.ignoredLocks, c.unimported = ignored, unimported
	})
	// The needs-auth cache, remembered lists and pins are files: read them
	// before taking e.mu. The desired list cannot go stale meanwhile:
	// reloads are serialized and whatever changes overEn reloads again.
	pre := preloaded{
		needsAuth: cachedNeedsAuth(e.opts.Auth, desired), blockers: c.blockersAll(desired),
		boxes: sandboxViews(desired, res.ProjectRoot), pins: e.pins.preload(res, desired),
		remembered: e.memory.preload(fresh),
	}
	e.locked(func() {
		if e.closed {
			err = ErrClosed
			return
		}
		c.applyAllLocked(res, desired, pre)
	})
	return err
}

// applyAllLocked makes res the configuration in force.
func (c *configParts) applyAllLocked(res *config.Resolved, desired []model.Server, pre preloaded) {
	e := c.e
	e.res = res
	have := make(map[string]lifecycle.RunInfo, len(e.byName))
	for name, en := range e.byName {
		have[name] = lifecycle.RunInfo{Hash: en.srv.Hash, Runnable: en.st.Runnable(), Active: en.st.Active()}
	}
	// One snapshot for the whole reload, not one per server: with 500
	// servers that is the difference between 1 and 500 copies of the list.
	e.batching = true
	for _, a := range lifecycle.Reconcile(desired, have) {
		c.applyLocked(a, pre)
	}
	for name, en := range e.byName {
		e.lists.permitLocked(en)
		e.pins.reloadedLocked(en, pre.pins[name])
		e.memory.permittedLocked(en)
	}
	e.order = e.order[:0:0]
	for _, en := range e.byName {
		e.order = append(e.order, en)
	}
	sortEntries(e.order)
	e.toolsDirty = true // servers may have gone, and their tools with them
	e.batching = false
	e.publishLocked()
}

// takenBy reports the names res and Options.Extra give servers, which an
// editor's server does not take.
func (c *configParts) takenBy(res *config.Resolved) func(string) bool {
	return func(name string) bool {
		if _, ok := res.Server(name); ok {
			return true
		}
		return slices.ContainsFunc(c.e.opts.Extra, func(x model.Server) bool { return x.Name == name })
	}
}

// desiredLocked is the loaded servers plus Options.Extra and the editors'
// servers ides (dynamic scope; a configured server of the same name wins;
// both ignored under enterprise config).
func (c *configParts) desiredLocked(res *config.Resolved, ides []model.Server) []model.Server {
	out := append([]model.Server(nil), res.Servers...)
	c.ides = nil
	if res.Enterprise {
		return out
	}
	c.ides = ides
	for _, x := range slices.Concat(c.e.opts.Extra, ides) {
		if _, exists := res.Server(x.Name); exists {
			continue
		}
		if x.Scope == 0 {
			x.Scope = model.ScopeDynamic
		}
		if x.Source == "" {
			x.Source = "built-in"
		}
		if x.Hash == "" {
			x.Hash = model.ConfigHash(x.Raw)
		}
		if x.Config.Command == "" && x.Config.URL == "" && x.Config.Name == "" {
			x.Config = x.Raw
		}
		if x.Policy.Rule == "" {
			x.Policy.Allowed = true
		}
		x.Enabled = true
		if en, ok := c.overEn[x.Name]; ok {
			x.Enabled = en
		}
		x.Sampling = c.overSampling[x.Name]
		out = append(out, x)
	}
	return out
}

// preloaded is what a reload learns by I/O (the needs-auth cache file, PATH
// lookups, remembered lists) before it takes e.mu, by server name.
type preloaded struct {
	needsAuth  map[string]bool
	blockers   map[string][]model.Reason
	boxes      map[string]*sandbox.View
	pins       map[string]pinPre
	remembered map[string]preloadedLists // of fresh definitions only (freshLocked)
}

// sandboxViews works out, for each server awaiting approval that asks
// for a sandbox, what that sandbox would open on this machine
// (launch.ExplainServer, never asking a version manager: nothing of an
// unapproved definition runs); callers do not hold e.mu.
func sandboxViews(servers []model.Server, project string) map[string]*sandbox.View {
	out := map[string]*sandbox.View{}
	for _, srv := range servers {
		if !srv.AwaitsApproval() || srv.Config.Sandbox == nil || !srv.Config.EffectiveType().Info().Program {
			continue
		}
		if p, err := launch.ExplainServer(srv, project, false); err == nil {
			v := p.View()
			out[srv.Name] = &v
		}
	}
	return out
}

// freshLocked are the servers of desired whose definition no entry holds
// yet (new, or changed): only theirs have lists to read. Callers hold
// e.mu.
func (c *configParts) freshLocked(desired []model.Server) []model.Server {
	var out []model.Server
	for _, srv := range desired {
		if en := c.e.byName[srv.Name]; en == nil || en.srv.Hash != srv.Hash {
			out = append(out, srv)
		}
	}
	return out
}

// blockersAll finds the blockers (PATH lookups) of every server; callers do
// not hold e.mu.
func (c *configParts) blockersAll(servers []model.Server) map[string][]model.Reason {
	out := make(map[string][]model.Reason, len(servers))
	for _, srv := range servers {
		out[srv.Name] = blockers(srv, c.e.findProgram)
	}
	return out
}

// applyLocked carries out one reconcile action: the definition is stored,
// the reducer decides what it means for the server.
func (c *configParts) applyLocked(a lifecycle.Action, pre preloaded) {
	e := c.e
	en := e.byName[a.Name]
	if a.Kind == lifecycle.ActRemove {
		if en != nil {
			e.run.feed(en, lifecycle.Removed{At: now()}, nil)
			delete(e.byName, a.Name)
		}
		return
	}
	oldHash := ""
	if en == nil {
		en = &entry{st: lifecycle.New(e.run.limits())}
		e.byName[a.Name] = en
	} else {
		oldHash = en.srv.Hash
	}
	configure(en, a.Server, pre.blockers[a.Name], pre.boxes[a.Name])
	e.memory.configuredLocked(en, oldHash, pre.remembered)
	e.run.feed(en, lifecycle.Configured{At: now(), Def: definition(en), Change: a.Kind, CachedAuth: pre.needsAuth[a.Name]}, nil)
}

// definition is what the reducer needs of en's definition. Callers hold
// e.mu.
func definition(en *entry) lifecycle.Definition {
	srv := en.srv
	d := lifecycle.Definition{
		Runnable: srv.Runnable(), Allowed: srv.Policy.Allowed, Rule: srv.Policy.Rule,
		Enabled: srv.Enabled, Approval: srv.Approval.Status, Problems: srv.Problems,
	}
	if len(srv.Problems) > 0 {
		d.ProblemText = en.redact(srv.Problems[0].Error())
	}
	return d
}

// configure stores the definition, its blockers and how snapshots show
// it (box: what its sandbox would open, for the approval prompt).
func configure(en *entry, srv model.Server, bs []model.Reason, box *sandbox.View) {
	en.srv = srv
	en.mask = textsafe.NewMasker(srv.Secrets()...)
	pol := srv.ManagedPolicy
	en.policy.Store(&pol)
	en.blockers = bs
	raw := srv.Raw
	if raw.Command == "" && raw.URL == "" && raw.Name == "" {
		raw = srv.Config // a server injected through Options.Extra may carry only its expanded definition
	}
	cfg := model.Redact(raw)
	d := shownDefinition{transport: srv.Config.EffectiveType(), config: cfg, runsIn: en.redact(srv.RunsIn()), target: model.RedactTarget(cfg)}
	if srv.AwaitsApproval() {
		written := srv.Raw
		d.written = &written
		d.sandbox = box
	}
	en.def = d
}
