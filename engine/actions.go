package engine

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
)

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
			if err := config.SetEnabled(e.opts.Load, n, on); err != nil {
				errs = append(errs, fmt.Errorf("server %s: %w", n, err))
			}
		}
	}
	if err := e.Reload(ctx); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// Enable turns a server (or "all") on, persisted in the private state of the project.
func (e *Engine) Enable(ctx context.Context, name string) error { return e.setEnabled(ctx, name, true) }

// Disable turns a server (or "all") off, persisted in the private state of the project.
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
		if err := config.SetApproval(e.opts.Load, n, ok, srv.Hash); err != nil {
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

// ErrChangedSinceShown refuses an approval whose definition is no longer
// the one the person saw.
var ErrChangedSinceShown = errors.New("its definition changed since it was shown to you; look at it again before approving")

// ApproveShown approves exactly the definitions the person was shown:
// shown maps each server name to the config hash on screen. A server whose
// definition changed since (a reload between drawing and the key press) is
// not approved, and the error says so; servers not in shown are untouched,
// so "approve all" in a prompt never approves one that was never listed.
func (e *Engine) ApproveShown(ctx context.Context, shown map[string]string) error {
	var errs []error
	for _, n := range slices.Sorted(maps.Keys(shown)) {
		e.mu.Lock()
		en := e.byName[n]
		var srv model.Server
		if en != nil {
			srv = en.srv
		}
		e.mu.Unlock()
		switch {
		case en == nil:
			errs = append(errs, fmt.Errorf("server %s: %w", n, ErrUnknownServer))
		case srv.Hash != shown[n]:
			errs = append(errs, fmt.Errorf("server %s: %w", n, ErrChangedSinceShown))
		default:
			if err := config.SetApproval(e.opts.Load, n, true, shown[n]); err != nil {
				errs = append(errs, fmt.Errorf("server %s: %w", n, err))
			}
		}
	}
	if err := e.Reload(ctx); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// Reject refuses a project server (or "all" awaiting approval).
func (e *Engine) Reject(ctx context.Context, name string) error {
	return e.setApproval(ctx, name, false)
}

// Reconnect connects a server again now. While a retry is scheduled it runs
// that retry at once ("retry now"), keeping the attempt count.
func (e *Engine) Reconnect(ctx context.Context, name string) error {
	list, err := e.names(name, func(en *entry) bool { return en.st.def.runnable })
	if err != nil {
		return err
	}
	// A manual reconnect re-checks PATH (the person may have installed the
	// command): the lookups happen before taking e.mu.
	e.mu.Lock()
	var srvs []model.Server
	hash := map[string]string{}
	for _, n := range list {
		if en := e.byName[n]; en != nil {
			srvs = append(srvs, en.srv)
			hash[n] = en.srv.Hash
		}
	}
	e.mu.Unlock()
	found := e.blockersAll(srvs)
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, n := range list {
		en := e.byName[n]
		if en == nil {
			continue
		}
		if w, ok := found[n]; ok && hash[n] == en.srv.Hash { // not redefined meanwhile
			en.blockers = w
		}
		if !en.st.def.runnable {
			return fmt.Errorf("%w: %s (%s)", ErrCannotRun, n, blockerKinds(en.blockers))
		}
		e.feed(en, evReconnect{at: now()}, nil)
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
	if en.st.state != model.StatePending || !en.st.active() {
		return fmt.Errorf("server %s is not reconnecting", name)
	}
	e.feed(en, evStopRetrying{at: now()}, nil)
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
		return en.maskErr(err) // the caller names the server and the action: no second prefix
	}
	e.feed(en, evAuthDone{at: now()}, nil)
	return nil
}

// SetToolDenied adds or removes the permission deny rule for one tool of
// server (its exposed name), in the project's private state, and reloads
// so the tool is marked at once.
func (e *Engine) SetToolDenied(ctx context.Context, server, tool string, deny bool) error {
	e.mu.Lock()
	_, ok := e.byName[server]
	e.mu.Unlock()
	if !ok {
		return fmt.Errorf("%w: %s", ErrUnknownServer, server)
	}
	if err := config.SetToolDenied(e.opts.Load, model.ToolName(server, tool), deny); err != nil {
		return fmt.Errorf("server %s, tool %s: %w", server, tool, err)
	}
	return e.Reload(ctx)
}
