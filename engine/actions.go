package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/mcpdeck/mcpdeck/engine/lifecycle"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
)

// Enable turns a server (or "all") on, persisted in the private state of the project.
func (e *Engine) Enable(ctx context.Context, name string) error {
	return e.config.setEnabled(ctx, name, true)
}

// Disable turns a server (or "all") off, persisted in the private state of the project.
func (e *Engine) Disable(ctx context.Context, name string) error {
	return e.config.setEnabled(ctx, name, false)
}

// Approve lets a project server (or "all" awaiting approval) run.
func (e *Engine) Approve(ctx context.Context, name string) error {
	return e.config.setApproval(ctx, name, true)
}

// ApproveShown approves exactly the definitions the person was shown:
// shown maps each server name to the config hash on screen. A server whose
// definition changed since (a reload between drawing and the key press) is
// not approved, and the error says so; servers not in shown are untouched,
// so "approve all" in a prompt never approves one that was never listed.
func (e *Engine) ApproveShown(ctx context.Context, shown map[string]string) error {
	return e.config.approveShown(ctx, shown)
}

// Reject refuses a project server (or "all" awaiting approval).
func (e *Engine) Reject(ctx context.Context, name string) error {
	return e.config.setApproval(ctx, name, false)
}

// SetToolDenied adds or removes the permission deny rule for one tool of
// server (its exposed name), in the project's private state, and reloads
// so the tool is marked at once.
func (e *Engine) SetToolDenied(ctx context.Context, server, tool string, deny bool) error {
	return e.config.setToolDenied(ctx, server, tool, deny)
}

// SetSampling changes the standing decision on a server's sampling requests
// (model.SamplingAsk forgets it).
func (e *Engine) SetSampling(ctx context.Context, name string, d model.SamplingDecision) error {
	known := false
	e.locked(func() { _, known = e.byName[name] })
	if !known {
		return unknownServer(name)
	}
	return e.config.setSampling(ctx, name, d)
}

// Reconnect connects a server again now. While a retry is scheduled it runs
// that retry at once ("retry now"), keeping the attempt count.
func (e *Engine) Reconnect(ctx context.Context, name string) error {
	list, err := e.config.names(name, func(en *entry) bool { return en.st.Runnable() })
	if err != nil {
		return err
	}
	// A manual reconnect re-checks PATH (the person may have installed the
	// command): the lookups happen before taking e.mu.
	var srvs []model.Server
	hash := map[string]string{}
	e.locked(func() {
		for _, n := range list {
			if en := e.byName[n]; en != nil {
				srvs = append(srvs, en.srv)
				hash[n] = en.srv.Hash
			}
		}
	})
	found := e.config.blockersAll(srvs)
	e.locked(func() {
		for _, n := range list {
			en := e.byName[n]
			if en == nil {
				continue
			}
			if w, ok := found[n]; ok && hash[n] == en.srv.Hash { // not redefined meanwhile
				en.blockers = w
			}
			if !en.st.Runnable() {
				err = fmt.Errorf("%w: %s (%s)", ErrCannotRun, n, blockerKinds(en.blockers))
				return
			}
			e.run.feed(en, lifecycle.Reconnect{At: now()}, nil)
		}
	})
	if err != nil {
		return err
	}
	return ctx.Err()
}

// CancelReconnect stops a reconnect sequence; the server becomes failed
// with "reconnect cancelled".
func (e *Engine) CancelReconnect(_ context.Context, name string) (err error) {
	e.locked(func() {
		en := e.byName[name]
		switch {
		case en == nil:
			err = unknownServer(name)
		case en.st.Current() != model.StatePending || !en.st.Active():
			err = fmt.Errorf("server %s is not reconnecting", name)
		default:
			e.run.feed(en, lifecycle.StopRetrying{At: now()}, nil)
		}
	})
	return err
}

// Authenticate runs the OAuth flow for a server and connects it on success.
func (e *Engine) Authenticate(ctx context.Context, name string) error {
	return e.run.authenticate(ctx, name)
}

// authenticate runs Authenticate: the sign-in URL is on the server's
// snapshot while the flow runs, and a sign-in tells the reducer.
func (r *runner) authenticate(ctx context.Context, name string) error {
	e := r.e
	if e.opts.Auth == nil {
		return errors.New("authentication is not available in this build")
	}
	var srv model.Server
	known := false
	e.locked(func() {
		if en := e.byName[name]; en != nil {
			srv, known = en.srv, true
		}
	})
	if !known {
		return unknownServer(name)
	}
	if t := srv.Config.EffectiveType(); !t.Info().OAuth {
		return fmt.Errorf("server %s uses %s: %w", name, t, model.ErrNoSignIn)
	}
	show := func(u string) {
		e.log.Info("open this URL to sign in", "server", name, "url", u)
		e.locked(func() {
			if cur := e.byName[name]; cur != nil {
				cur.conn.authURL = u
				e.publishLocked()
			}
		})
	}
	err := e.opts.Auth.Authenticate(ctx, srv, show)
	e.ifEntry(name, func(en *entry) {
		en.conn.authURL = ""
		if err != nil {
			e.publishLocked()
			err = en.maskErr(err) // the caller names the server and the action: no second prefix
			return
		}
		r.feed(en, lifecycle.AuthDone{At: now()}, nil)
	})
	return err
}

// AllowSandboxHost adds host to the network list of server's sandbox in
// the person's user or local settings, where the server is defined
// (config.AllowSandboxHost: never the project's .mcp.json), and reloads,
// so the server restarts with its proxy allowing the host.
func (e *Engine) AllowSandboxHost(ctx context.Context, server, host string) error {
	var scope model.Scope
	known := false
	e.locked(func() {
		if en, ok := e.byName[server]; ok {
			known, scope = true, en.srv.Scope
		}
	})
	if !known {
		return unknownServer(server)
	}
	if _, err := config.AllowSandboxHost(e.opts.Load, scope, server, host); err != nil {
		return fmt.Errorf("server %s: %w", server, err)
	}
	return e.Reload(ctx)
}

// ReconnectOutcome is Reconnect for one server, waiting for that attempt's
// outcome, so that whoever asked can say whether it worked: the server's
// snapshot once it connected, failed, needs sign-in, or scheduled its next
// attempt (a retry now that failed during a reconnect sequence).
func (e *Engine) ReconnectOutcome(ctx context.Context, name string) (s ServerSnapshot, err error) {
	if err = e.Reconnect(ctx, name); err != nil {
		return s, err
	}
	for {
		var changed chan struct{}
		err = e.withEntry(name, func(en *entry) error {
			if sh := en.st.Shown(); sh.State == model.StatePending && sh.Reason.Kind == model.ReasonConnecting {
				changed = e.changed // the attempt runs
				return nil
			}
			en.snapshot(&s)
			return nil
		})
		if err != nil || changed == nil {
			return s, err
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return s, ctx.Err()
		}
	}
}
