package engine

import (
	"context"
	"fmt"
	"slices"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// Reload reads the configuration again and reconciles: new servers start,
// removed ones close, and only servers whose config hash changed restart.
func (e *Engine) Reload(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	// One reload at a time, so an older load never overwrites a newer one.
	e.reloadMu.Lock()
	defer e.reloadMu.Unlock()
	res, err := e.load(e.opts.Load)
	if err != nil {
		return fmt.Errorf("loading configuration: %w", err)
	}
	e.mu.Lock()
	desired := e.desiredLocked(res)
	e.mu.Unlock()
	// The needs-auth cache is a file: read it before taking e.mu. The
	// desired list cannot go stale meanwhile: reloads are serialized and
	// whatever changes overEn reloads again.
	pre := preloaded{needsAuth: e.cachedNeedsAuth(desired), blockers: e.blockersAll(desired)}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return ErrClosed
	}
	e.res = res
	have := make(map[string]runInfo, len(e.byName))
	for name, en := range e.byName {
		have[name] = runInfo{Hash: en.srv.Hash, Runnable: en.st.def.runnable, Active: en.st.active()}
	}
	// One snapshot for the whole reload, not one per server: with 500
	// servers that is the difference between 1 and 500 copies of the list.
	e.batching = true
	for _, a := range reconcile(desired, have) {
		e.applyLocked(a, pre)
	}
	for _, en := range e.byName {
		e.applyPermissionsLocked(en)
	}
	e.order = e.order[:0:0]
	for _, en := range e.byName {
		e.order = append(e.order, en)
	}
	sortEntries(e.order)
	e.toolsDirty = true // servers may have gone, and their tools with them
	e.batching = false
	e.publishLocked()
	return nil
}

// desiredLocked is the loaded servers plus Options.Extra (dynamic scope; a
// configured server of the same name wins; ignored under enterprise config).
func (e *Engine) desiredLocked(res *config.Resolved) []model.Server {
	out := append([]model.Server(nil), res.Servers...)
	if res.Enterprise {
		return out
	}
	for _, x := range e.opts.Extra {
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
		if en, ok := e.overEn[x.Name]; ok {
			x.Enabled = en
		}
		x.Sampling = e.overSampling[x.Name]
		out = append(out, x)
	}
	return out
}

// preloaded is what Reload learns by I/O (the needs-auth cache file, PATH
// lookups) before it takes e.mu, by server name.
type preloaded struct {
	needsAuth map[string]bool
	blockers  map[string][]model.Reason
}

// blockersAll finds the blockers (PATH lookups) of every server; callers do
// not hold e.mu.
func (e *Engine) blockersAll(servers []model.Server) map[string][]model.Reason {
	out := make(map[string][]model.Reason, len(servers))
	for _, srv := range servers {
		out[srv.Name] = blockers(srv, e.findProgram)
	}
	return out
}

// applyLocked carries out one reconcile action: the runner stores the
// definition, step decides what it means for the server.
func (e *Engine) applyLocked(a action, pre preloaded) {
	en := e.byName[a.Name]
	if a.Kind == actRemove {
		if en != nil {
			e.feed(en, evRemoved{at: now()}, nil)
			delete(e.byName, a.Name)
		}
		return
	}
	if en == nil {
		en = &entry{st: newServerState(e.limits())}
		e.byName[a.Name] = en
	}
	e.configure(en, a.Server, pre.blockers[a.Name])
	e.feed(en, evConfigured{at: now(), def: e.definition(en), change: a.Kind, cachedAuth: pre.needsAuth[a.Name]}, nil)
}

// definition is what step needs of en's definition. Callers hold e.mu.
func (e *Engine) definition(en *entry) definition {
	srv := en.srv
	d := definition{
		runnable: srv.Runnable(), allowed: srv.Policy.Allowed, rule: srv.Policy.Rule,
		enabled: srv.Enabled, approval: srv.Approval.Status, problems: srv.Problems,
	}
	if len(srv.Problems) > 0 {
		d.problemText = en.redact(srv.Problems[0].Error())
	}
	return d
}

// configure stores the definition, its blockers and the static snapshot
// fields.
func (e *Engine) configure(en *entry, srv model.Server, bs []model.Reason) {
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
	en.s.Name, en.s.Scope, en.s.Source = srv.Name, srv.Scope, srv.Source
	en.s.Overrides = srv.Overrides
	en.s.Transport = srv.Config.EffectiveType()
	en.s.Config = cfg
	en.s.Written = nil
	if srv.AwaitsApproval() {
		written := srv.Raw
		en.s.Written = &written
	}
	en.s.RunsIn = en.redact(srv.RunsIn())
	en.s.Target = model.RedactTarget(cfg)
	en.s.Hash = srv.Hash
	en.s.Enabled, en.s.Approval, en.s.Policy, en.s.Problems = srv.Enabled, srv.Approval, srv.Policy, srv.Problems
	en.s.SamplingDecision = srv.Sampling
}

// applyPermissionsLocked re-flags denied tools after the permission rules
// changed. Tool slices are shared with published snapshots, so a changed
// list is copied, never edited in place.
func (e *Engine) applyPermissionsLocked(en *entry) {
	if e.res == nil {
		return
	}
	var out []Tool
	for i, t := range en.s.Tools {
		allowed, rule := e.res.Permissions.Check(t.ExposedName)
		if denied := !allowed && rule != ""; denied != t.Denied {
			if out == nil {
				out = slices.Clone(en.s.Tools)
			}
			out[i].Denied = denied
		}
	}
	if out != nil {
		en.s.Tools = out
	}
}
