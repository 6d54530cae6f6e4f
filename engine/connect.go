package engine

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/transports"
)

// attemptLocked launches the connection attempt of generation gen.
func (e *Engine) attemptLocked(en *entry, gen uint64) {
	if e.closed {
		return
	}
	ctx, cancel := context.WithCancel(e.ctx)
	en.cancel = cancel
	srv, mask := en.srv, en.mask
	policy := &en.policy
	e.wg.Go(func() { e.connect(ctx, srv, mask, policy, gen) })
}

// connect opens, initializes and lists one server, then reports back.
func (e *Engine) connect(ctx context.Context, srv model.Server, mask *textsafe.Masker, policy *atomic.Pointer[model.Policy], gen uint64) {
	conn, l, err := e.open1(ctx, srv, mask, policy)
	e.mu.Lock()
	defer e.mu.Unlock()
	en := e.byName[srv.Name]
	if e.closed || en == nil {
		if conn != nil {
			e.goClose(conn, mask)
		}
		return
	}
	if err != nil {
		if conn != nil {
			e.goClose(conn, mask)
		}
		f := e.describe(en, err)
		if gen == en.st.gen {
			e.log.Info("server failed", "server", srv.Name, "err", f.detail, "class", f.class)
			if tail := failedStderr(conn, err); len(tail) > 0 {
				en.s.StderrTail = en.mask.MaskLines(tail) // often the only clue why it never connected
			}
		}
		e.feed(en, evAttemptFailed{at: now(), gen: gen, fail: f, jitter: e.rnd()}, nil)
		return
	}
	e.markLists(&l)
	problem, detail := e.listProblems(en, l)
	kept := false
	e.feed(en, evAttemptSucceeded{at: now(), gen: gen, problem: problem, detail: detail}, func() {
		kept = true
		e.adopt(ctx, en, gen, conn, l)
	})
	if !kept {
		e.goClose(conn, mask)
	}
}

// open1 opens one connection within MCP_TIMEOUT and lists what it offers
// within another MCP_TIMEOUT, so 10 000 tools on a slow link do not fail
// the connect. policy is the server's managed policy as reloads change it.
func (e *Engine) open1(ctx context.Context, srv model.Server, mask *textsafe.Masker, policy *atomic.Pointer[model.Policy]) (session, lists, error) {
	if srv.Config.EffectiveType().IsRemote() {
		select {
		case e.remote <- struct{}{}:
		case <-ctx.Done():
			return nil, lists{}, ctx.Err()
		}
		defer func() { <-e.remote }()
	} else {
		release, err := e.local.acquire(ctx)
		if err != nil {
			return nil, lists{}, err
		}
		defer release()
	}
	cctx, cancel := context.WithTimeout(ctx, e.set.connectTimeout)
	opts := e.connOptions(srv, mask, policy)
	opts.ProtocolVersion = e.rememberedVersion(srv)
	conn, err := e.open(cctx, srv.Name, srv.Config, opts)
	timedOut := cctx.Err() == context.DeadlineExceeded && ctx.Err() == nil
	cancel()
	var l lists
	if err == nil {
		if init := conn.Init(); init != nil {
			e.rememberVersion(srv, opts.ProtocolVersion, init.ProtocolVersion)
		}
		lctx, lcancel := context.WithTimeout(ctx, e.set.connectTimeout)
		l = e.fetchAll(lctx, srv, conn)
		if l.fatal != nil {
			err = l.fatal
			timedOut = lctx.Err() == context.DeadlineExceeded && ctx.Err() == nil
		}
		lcancel()
	}
	if err != nil && timedOut {
		err = fmt.Errorf("%w: no answer within %s (MCP_TIMEOUT): %w", ErrConnectTimeout, e.set.connectTimeout, err)
	}
	return conn, l, err
}

// adopt makes conn en's connection: its lists and server info are shown
// and its end is watched. Callers hold e.mu.
func (e *Engine) adopt(ctx context.Context, en *entry, gen uint64, conn session, l lists) {
	en.conn = conn
	e.applyLists(en, l)
	if init := conn.Init(); init != nil {
		en.s.ServerInfo = Implementation{Name: sanitize(init.ServerInfo.Name), Version: sanitize(init.ServerInfo.Version)}
		en.s.ProtocolVersion = init.ProtocolVersion
		in := init.Instructions // masked as far as capText reads, and a secret further
		en.s.Instructions = capText(en.mask.Mask(in[:min(len(in), 4*maxTextLen+en.mask.Longest())]))
		en.s.Subscriptions = canSubscribe(init)
	}
	en.s.StderrTail = en.mask.MaskLines(conn.StderrTail(stderrTailLines))
	name, mask := en.srv.Name, en.mask
	e.wg.Go(func() { e.monitor(ctx, name, mask, gen, conn) })
	e.renewWatchesLocked(en, gen, conn)
	if level := en.logLevel; level != "" { // a new session starts at the server's default level
		e.wg.Go(func() { _ = e.SetLogLevel(e.ctx, name, level) })
	}
}

// ErrConnectTimeout marks a connect that took longer than MCP_TIMEOUT.
var ErrConnectTimeout = errors.New("connect timed out")

// failedStderr is the stderr tail of an attempt that failed: the
// transport's, kept with its error when the process ended before
// connecting, else the half-open connection's.
func failedStderr(conn session, err error) []string {
	var te *transports.Error
	if errors.As(err, &te) && len(te.StderrTail) > 0 {
		return te.StderrTail
	}
	if conn != nil {
		return conn.StderrTail(stderrTailLines)
	}
	return nil
}
