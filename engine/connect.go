package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
)

// startLocked begins a fresh connection (attempt counter reset): used at
// startup, on enable/approve/reload and for a manual reconnect.
func (e *Engine) startLocked(en *entry, reason string) {
	e.stopLocked(en)
	en.attempt = 0
	en.s.Attempt, en.s.MaxAttempts = 0, 0
	en.quickCrash = 0
	en.transient = 0
	e.setError(en, nil)
	en.s.ExitCode = nil
	if en.s.State != model.StatePending || len(en.s.History) > 0 {
		e.transition(en, model.StatePending, reason)
	} else {
		e.refreshWhy(en)
		e.publishLocked()
	}
	e.attemptLocked(en)
}

// stopLocked ends whatever en is doing: a scheduled retry, an attempt in
// flight, an open connection (closed in the background).
func (e *Engine) stopLocked(en *entry) {
	en.stopRetry()
	en.gen++
	if en.cancel != nil {
		en.cancel()
		en.cancel = nil
	}
	if en.conn != nil {
		c := en.conn
		en.conn = nil
		e.goClose(c)
	}
	en.dropCaches()
	en.transient = 0
}

// goClose closes a connection without holding up the caller.
func (e *Engine) goClose(c session) {
	e.wg.Go(func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(e.ctx), closeTimeout)
		defer cancel()
		if err := c.Close(ctx); err != nil {
			e.log.Debug("closing connection", "err", model.RedactText(err.Error()))
		}
	})
}

// attemptLocked launches one connection attempt for en's current generation.
func (e *Engine) attemptLocked(en *entry) {
	if e.closed {
		return
	}
	en.gen++
	gen := en.gen
	ctx, cancel := context.WithCancel(e.ctx)
	en.cancel = cancel
	srv := en.srv
	e.wg.Go(func() { e.connect(ctx, srv, gen) })
}

// connect opens, initializes and lists one server, then reports back.
func (e *Engine) connect(ctx context.Context, srv model.Server, gen uint64) {
	slots := e.local
	if srv.Config.EffectiveType().IsRemote() {
		slots = e.remote
	}
	select {
	case slots <- struct{}{}:
	case <-ctx.Done():
		return
	}
	release := func() { <-slots }

	// MCP_TIMEOUT bounds the handshake; listing gets its own budget of the
	// same length, so 10 000 tools on a slow link do not fail the connect.
	cctx, cancel := context.WithTimeout(ctx, e.set.connectTimeout)
	opts := e.connOptions(srv)
	opts.ProtocolVersion = e.rememberedVersion(srv)
	conn, err := e.open(cctx, srv.Name, srv.Config, opts)
	timedOut := cctx.Err() == context.DeadlineExceeded && ctx.Err() == nil
	cancel()
	var lists lists
	if err == nil {
		if init := conn.Init(); init != nil {
			e.rememberVersion(srv, opts.ProtocolVersion, init.ProtocolVersion)
		}
		lctx, lcancel := context.WithTimeout(ctx, e.set.connectTimeout)
		lists = e.fetchAll(lctx, srv, conn)
		if lists.fatal != nil {
			err = lists.fatal
			timedOut = lctx.Err() == context.DeadlineExceeded && ctx.Err() == nil
		}
		lcancel()
	}
	release()
	if err != nil && timedOut {
		err = fmt.Errorf("%w: no answer within %s (MCP_TIMEOUT): %w", ErrConnectTimeout, e.set.connectTimeout, err)
	}

	e.mu.Lock()
	defer e.mu.Unlock()
	en := e.byName[srv.Name]
	if e.closed || en == nil || en.gen != gen {
		if conn != nil {
			e.goClose(conn)
		}
		return
	}
	if err != nil {
		if conn != nil {
			e.goClose(conn)
		}
		if en.cancel != nil {
			en.cancel()
			en.cancel = nil
		}
		e.failLocked(en, err)
		return
	}
	en.conn = conn
	en.connectedAt = e.clock.Now()
	en.attempt = 0
	en.transient = 0
	e.setError(en, nil)
	e.applyLists(en, lists)
	if init := conn.Init(); init != nil {
		en.s.ServerInfo = Implementation{Name: sanitize(init.ServerInfo.Name), Version: sanitize(init.ServerInfo.Version)}
		en.s.ProtocolVersion = init.ProtocolVersion
		en.s.Instructions = capText(init.Instructions)
	}
	en.s.StderrTail = conn.StderrTail(stderrTailLines)
	e.transition(en, model.StateConnected, "connected")
	e.wg.Go(func() { e.monitor(ctx, srv.Name, gen, conn) })
}

// ErrConnectTimeout marks a connect that took longer than MCP_TIMEOUT.
var ErrConnectTimeout = errors.New("connect timed out")

// failLocked handles a failed attempt: auth errors go to needs-auth, a
// failure during a reconnect sequence schedules the next try, a first
// failure is final until the person acts, and so is a message over the
// size limit at any attempt (the server would send it again).
func (e *Engine) failLocked(en *entry, err error) {
	e.setError(en, err)
	if code, ok := e.errs.exitCode(err); ok {
		en.s.ExitCode = &code
	}
	cls, _ := e.errs.classify(err)
	e.log.Info("server failed", "server", en.srv.Name, "err", en.redact(err.Error()), "class", cls)
	if cls == classAuth {
		e.needsAuthLocked(en)
		return
	}
	if en.attempt > 0 && cls != classTooLarge {
		e.retryLocked(en, err)
		return
	}
	e.transition(en, model.StateFailed, en.s.Error)
}

// retryLocked schedules the next reconnect attempt under the backoff
// policy, or gives up after the last.
func (e *Engine) retryLocked(en *entry, cause error) {
	en.attempt++
	if en.attempt > e.backoff.MaxAttempts {
		en.attempt = 0
		msg := fmt.Sprintf("Gave up after %d reconnect attempts: %s", e.backoff.MaxAttempts, e.errText(en, cause))
		en.s.Error = msg
		e.transition(en, model.StateFailed, msg)
		return
	}
	delay := e.backoff.Delay(en.attempt, e.rnd)
	en.s.Attempt = en.attempt
	en.s.MaxAttempts = e.backoff.MaxAttempts
	en.s.NextRetry = e.clock.Now().Add(delay)
	gen := en.gen
	name := en.srv.Name
	en.timer = e.clock.AfterFunc(delay, func() { e.retryNow(name, gen) })
	e.transition(en, model.StatePending, fmt.Sprintf("reconnect attempt %d/%d in %s", en.attempt, e.backoff.MaxAttempts, delay.Round(100*time.Millisecond)))
}

// retryNow runs a scheduled retry if it is still current.
func (e *Engine) retryNow(name string, gen uint64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	en := e.byName[name]
	if e.closed || en == nil || en.gen != gen || en.timer == nil {
		return
	}
	en.timer = nil
	en.s.NextRetry = time.Time{}
	e.publishLocked()
	e.attemptLocked(en)
}
