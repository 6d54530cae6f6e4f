package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
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
	defer e.mu.Unlock()
	if e.closed {
		return ErrClosed
	}
	e.res = res
	desired := e.desiredLocked(res)
	have := make(map[string]runInfo, len(e.byName))
	for name, en := range e.byName {
		have[name] = runInfo{Hash: en.srv.Hash, Runnable: en.runnable, Active: en.active()}
	}
	for _, a := range reconcile(desired, have) {
		e.applyLocked(a)
	}
	e.order = e.order[:0:0]
	for _, en := range e.byName {
		e.order = append(e.order, en)
	}
	sortEntries(e.order)
	e.publishLocked()
	return nil
}

// desiredLocked is the loaded servers plus Options.Extra (dynamic scope; a
// configured server of the same name wins; ignored under enterprise config).
func (e *Engine) desiredLocked(res *model.Resolved) []model.Server {
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
		out = append(out, x)
	}
	return out
}

// applyLocked carries out one reconcile action.
func (e *Engine) applyLocked(a action) {
	en := e.byName[a.Name]
	if a.Kind == actRemove {
		if en != nil {
			e.stopLocked(en)
			delete(e.byName, a.Name)
		}
		return
	}
	if en == nil {
		en = &entry{}
		e.byName[a.Name] = en
	}
	e.configure(en, a.Server)
	switch a.Kind {
	case actStart, actRestart:
		reason := "starting"
		if a.Kind == actRestart {
			reason = "configuration changed"
		}
		if e.opts.Auth != nil && a.Server.Config.EffectiveType().IsRemote() && e.opts.Auth.NeedsAuth(a.Server) {
			e.stopLocked(en)
			en.s.Error = "The server needs you to sign in."
			e.transition(en, model.StateNeedsAuth, "needs auth (cached)")
			return
		}
		e.startLocked(en, reason)
	case actAdd, actStop:
		e.stopLocked(en)
		e.idleLocked(en)
	case actUpdate:
		if !en.runnable {
			e.idleLocked(en)
		}
		e.refreshWhy(en)
	case actRemove:
	}
}

// configure stores the definition and the static snapshot fields.
func (e *Engine) configure(en *entry, srv model.Server) {
	en.srv = srv
	en.runnable = srv.Runnable()
	en.why, en.whyOK = nil, false
	cfg := maskConfig(srv.Config)
	en.s.Name, en.s.Scope, en.s.Source = srv.Name, srv.Scope, srv.Source
	en.s.Overrides = srv.Overrides
	en.s.Transport = srv.Config.EffectiveType()
	en.s.Config = cfg
	en.s.Target = target(cfg)
	en.s.Hash = srv.Hash
	en.s.Enabled, en.s.Approval, en.s.Policy, en.s.Problems = srv.Enabled, srv.Approval, srv.Policy, srv.Problems
}

// idleLocked puts a server that may not run into the state that explains
// it: disabled (by you, by policy, rejected), pending approval, or failed
// with its config problems.
func (e *Engine) idleLocked(en *entry) {
	srv := en.srv
	var to model.State
	var reason string
	switch {
	case !srv.Policy.Allowed:
		to, reason = model.StateDisabled, "blocked by policy"
		if srv.Policy.Rule != "" {
			reason += " rule " + srv.Policy.Rule
		}
	case !srv.Enabled:
		to, reason = model.StateDisabled, "disabled by you"
	case srv.Approval.Status == model.ApprovalRejected:
		to, reason = model.StateDisabled, "rejected by you"
	case srv.Approval.Status == model.ApprovalPending || srv.Approval.Status == model.ApprovalChanged:
		to, reason = model.StatePending, "awaiting approval"
	case len(srv.Problems) > 0:
		to, reason = model.StateFailed, srv.Problems[0].Error()
		en.s.Error, en.s.ErrorDetail, en.s.ErrorClass = reason, reason, "config"
	default:
		e.refreshWhy(en)
		return
	}
	if en.s.State == to && len(en.s.History) > 0 {
		e.refreshWhy(en)
		return
	}
	if model.CheckTransition(en.s.State, to) != nil {
		// e.g. disabled → failed is not allowed: go through pending.
		e.transition(en, model.StatePending, "configuration changed")
	}
	e.transition(en, to, reason)
}

// names expands "all" or checks that one name exists.
func (e *Engine) names(name string, pick func(*entry) bool) ([]string, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return nil, ErrClosed
	}
	if name != "all" {
		en := e.byName[name]
		if en == nil {
			return nil, fmt.Errorf("%w: %s", ErrUnknownServer, name)
		}
		return []string{name}, nil
	}
	var out []string
	for _, en := range e.order {
		if pick == nil || pick(en) {
			out = append(out, en.srv.Name)
		}
	}
	return out, nil
}

// isExtra reports whether name is a program-injected server.
func (e *Engine) isExtra(name string) bool {
	if e.res != nil {
		if _, ok := e.res.Server(name); ok {
			return false
		}
	}
	for _, x := range e.opts.Extra {
		if x.Name == name {
			return true
		}
	}
	return false
}

// setEnabled persists enable/disable (in memory for injected servers) and
// reloads.
func (e *Engine) setEnabled(ctx context.Context, name string, on bool) error {
	list, err := e.names(name, func(en *entry) bool { return en.srv.Enabled != on })
	if err != nil {
		return err
	}
	var errs []error
	for _, n := range list {
		e.mu.Lock()
		extra := e.isExtra(n)
		if extra {
			e.overEn[n] = on
		}
		e.mu.Unlock()
		if !extra {
			if err := model.SetEnabled(e.opts.Load, n, on); err != nil {
				errs = append(errs, fmt.Errorf("server %s: %w", n, err))
			}
		}
	}
	if err := e.Reload(ctx); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// Enable turns a server (or "all") on, persisted in local settings.
func (e *Engine) Enable(ctx context.Context, name string) error { return e.setEnabled(ctx, name, true) }

// Disable turns a server (or "all") off, persisted in local settings.
func (e *Engine) Disable(ctx context.Context, name string) error {
	return e.setEnabled(ctx, name, false)
}

// setApproval records the person's decision for project servers, tied to
// each server's current config hash.
func (e *Engine) setApproval(ctx context.Context, name string, ok bool) error {
	awaiting := func(en *entry) bool {
		s := en.srv.Approval.Status
		return s == model.ApprovalPending || s == model.ApprovalChanged
	}
	list, err := e.names(name, awaiting)
	if err != nil {
		return err
	}
	var errs []error
	for _, n := range list {
		e.mu.Lock()
		en := e.byName[n]
		srv := en.srv
		e.mu.Unlock()
		if srv.Approval.Status == model.ApprovalNotNeeded {
			errs = append(errs, fmt.Errorf("server %s is not a project server: nothing to approve", n))
			continue
		}
		if err := model.SetApproval(e.opts.Load, n, ok, srv.Hash); err != nil {
			errs = append(errs, fmt.Errorf("server %s: %w", n, err))
		}
	}
	if err := e.Reload(ctx); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// Approve lets a project server (or "all" awaiting approval) run.
func (e *Engine) Approve(ctx context.Context, name string) error {
	return e.setApproval(ctx, name, true)
}

// Reject refuses a project server (or "all" awaiting approval).
func (e *Engine) Reject(ctx context.Context, name string) error {
	return e.setApproval(ctx, name, false)
}

// Reconnect connects a server again now. While a retry is scheduled it runs
// that retry at once ("retry now"), keeping the attempt count.
func (e *Engine) Reconnect(ctx context.Context, name string) error {
	list, err := e.names(name, func(en *entry) bool { return en.runnable })
	if err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, n := range list {
		en := e.byName[n]
		if en == nil {
			continue
		}
		if !en.runnable {
			return fmt.Errorf("server %s cannot run: %s", n, strings.Join(whyNot(en.srv, e.lookPath), " "))
		}
		if en.timer != nil {
			en.stopRetry()
			e.publishLocked()
			e.attemptLocked(en)
			continue
		}
		e.startLocked(en, "reconnect requested")
	}
	return ctx.Err()
}

// CancelReconnect stops a reconnect sequence; the server becomes failed
// with "reconnect cancelled".
func (e *Engine) CancelReconnect(_ context.Context, name string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	en := e.byName[name]
	if en == nil {
		return fmt.Errorf("%w: %s", ErrUnknownServer, name)
	}
	if en.s.State != model.StatePending || !en.active() {
		return fmt.Errorf("server %s is not reconnecting", name)
	}
	e.stopLocked(en)
	en.attempt = 0
	en.s.Error = "Reconnect cancelled."
	e.transition(en, model.StateFailed, "reconnect cancelled")
	return nil
}

// Authenticate runs the OAuth flow for a server and connects it on success.
func (e *Engine) Authenticate(ctx context.Context, name string) error {
	if e.opts.Auth == nil {
		return errors.New("authentication is not available in this build")
	}
	e.mu.Lock()
	en := e.byName[name]
	if en == nil {
		e.mu.Unlock()
		return fmt.Errorf("%w: %s", ErrUnknownServer, name)
	}
	srv := en.srv
	e.mu.Unlock()
	if !srv.Config.EffectiveType().IsRemote() {
		return fmt.Errorf("server %s uses %s: only remote servers sign in", name, srv.Config.EffectiveType())
	}
	show := func(u string) {
		e.log.Info("open this URL to sign in", "server", name, "url", u)
		e.mu.Lock()
		defer e.mu.Unlock()
		if cur := e.byName[name]; cur != nil {
			cur.s.AuthURL = u
			e.publishLocked()
		}
	}
	err := e.opts.Auth.Authenticate(ctx, srv, show)
	e.mu.Lock()
	defer e.mu.Unlock()
	en = e.byName[name]
	if en == nil || e.closed {
		return err
	}
	en.s.AuthURL = ""
	if err != nil {
		e.publishLocked()
		return fmt.Errorf("signing in to %s: %w", name, err)
	}
	if en.runnable {
		e.startLocked(en, "signed in")
	}
	return nil
}
