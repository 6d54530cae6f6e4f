package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mcpdeck/mcpdeck/engine/callerr"
	"github.com/mcpdeck/mcpdeck/engine/lifecycle"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/transports"
)

// callError turns a call failure into a sentence naming the server. The
// transport's own text (mcp-go's "transport error: failed to send request:
// ...") is left out of the message; errors.Is and errors.As still reach it.
func (c *callParts) callError(ctx context.Context, server, what string, err error) error {
	e := c.e
	if cerr := ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
		err = fmt.Errorf("%w (%w)", cerr, err)
	}
	var why string
	var lost *callerr.ConnectionLostError
	isLost := errors.As(err, &lost)
	// A cancellation the caller did not make is mcpdeck closing the
	// connection under the call: the transport cancels what is in flight.
	closed := !isLost && errors.Is(err, context.Canceled) && ctx.Err() == nil
	switch {
	case isLost:
		why = lost.Error()
	case closed:
		why = (&callerr.ConnectionLostError{Closed: true}).Error()
	case errors.Is(err, context.DeadlineExceeded):
		why = fmt.Sprintf("no answer within %s (MCP_TOOL_TIMEOUT)", e.set.toolTimeout)
	case errors.Is(err, context.Canceled):
		why = "cancelled"
	case inputWhy(err) != "":
		why = inputWhy(err)
	default:
		why = e.errs.humanize(err)
	}
	var scopeErr error
	e.locked(func() {
		en := e.byName[server]
		if en == nil {
			why = textsafe.NewMasker().Mask(why) // the server is gone: its patterns only
			return
		}
		if closed {
			sh := en.st.Shown()
			lost = &callerr.ConnectionLostError{Closed: true, State: sh.State, Reason: sh.Reason, Err: err}
			why = lost.Error()
		}
		why = en.redact(why)
		if cls, _ := e.errs.classify(err); cls == lifecycle.ClassAuth {
			scopeErr = missingScopeLocked(e, en)
		}
	})
	if scopeErr != nil {
		return &CallError{Message: fmt.Sprintf("%s on %s: %s", what, server, scopeErr), Err: errors.Join(scopeErr, err)}
	}
	if closed && lost != nil {
		err = lost
	}
	return &CallError{Message: fmt.Sprintf("%s on %s: %s", what, server, why), Err: err}
}

// CallError is a failed tool call, resource read or prompt get, worded for
// a person; Err is the cause (a transport or JSON-RPC error).
type CallError struct {
	Message string
	Err     error
}

func (c *CallError) Error() string { return c.Message }

// Unwrap returns the cause.
func (c *CallError) Unwrap() error { return c.Err }

// do runs one request and applies the error classes: an expired
// session is re-initialized and the request retried once; transient errors
// are counted and three in a row reconnect; terminal errors reconnect at
// once; auth errors move the server to needs-auth. A request whose
// connection ended under it fails with a *callerr.ConnectionLostError.
func (c *callParts) do(ctx context.Context, t callTarget, f func(session) error) error {
	done := c.e.health.busy(t.name)
	defer done()
	err := f(t.conn)
	if err == nil {
		c.noteSuccess(t)
		return nil
	}
	if ctx.Err() != nil {
		return err // the caller's cancel or timeout, not the server's fault
	}
	cls, _ := c.e.errs.classify(err)
	switch cls {
	case lifecycle.ClassSessionExpired:
		if rerr := t.conn.Reinit(ctx); rerr != nil {
			// The transport cannot start a new session in place (legacy
			// SSE): reconnect, then retry once on the new connection.
			nt, cerr := c.reconnectFor(ctx, t)
			if cerr != nil {
				return fmt.Errorf("session expired and reconnecting failed: %w", cerr)
			}
			t = nt
		}
		err = f(t.conn)
		if err == nil {
			c.noteSuccess(t)
			return nil
		}
	case lifecycle.ClassOther, lifecycle.ClassTransient, lifecycle.ClassTerminal, lifecycle.ClassAuth,
		lifecycle.ClassExited, lifecycle.ClassTimeout, lifecycle.ClassTooLarge:
	}
	c.noteFailure(t, err)
	if lost := c.lostDuring(ctx, t, err); lost != nil {
		return lost
	}
	return err
}

// noteSuccess tells the reducer a request on t's connection worked.
func (c *callParts) noteSuccess(t callTarget) {
	c.e.run.feedNamed(t.name, lifecycle.CallSucceeded{At: now(), Gen: t.gen})
}

// noteFailure tells the reducer a request on t's connection failed.
func (c *callParts) noteFailure(t callTarget, err error) {
	r := c.e.run
	c.e.ifEntry(t.name, func(en *entry) {
		if en.conn.conn != t.conn {
			return
		}
		burst := fmt.Errorf("%d errors in a row: %w", transientLimit, err)
		r.feed(en, lifecycle.CallFailed{At: now(), Gen: t.gen, Fail: r.describe(en, err), Burst: r.describe(en, burst), Jitter: c.e.rnd()}, nil)
	})
}

// reconnectFor replaces t's connection (unless that already happened) and
// waits until the server is connected again (awaitUp), or has failed.
func (c *callParts) reconnectFor(ctx context.Context, t callTarget) (callTarget, error) {
	e := c.e
	e.ifEntry(t.name, func(en *entry) {
		if en.conn.conn == t.conn {
			e.run.feed(en, lifecycle.SessionExpired{At: now(), Gen: t.gen}, nil)
		}
	})
	c.awaitUp(ctx, t.name)
	if err := ctx.Err(); err != nil {
		return callTarget{}, err
	}
	var nt callTarget
	err := e.withEntry(t.name, func(en *entry) error {
		if s := en.st.Current(); s != model.StateConnected {
			return fmt.Errorf("%w: %s is %s: %s", ErrNotConnected, t.name, s, en.st.Shown().Error)
		}
		nt = callTarget{name: t.name, gen: en.st.Gen(), conn: en.conn.conn}
		return nil
	})
	return nt, err
}

// lossGrace is how long a request that failed on a broken connection waits
// for the transport to say whether the connection ended. The request often
// fails first: over HTTP the end shows at the event stream's next
// reconnect, a second after it broke. A ping answered meanwhile says at
// once that the connection still works (only the request's own stream
// broke), so such a failure is reported when it happens.
const lossGrace = 3 * time.Second

// lostDuring returns a *callerr.ConnectionLostError when err failed a request on t
// because t's connection ended under it, and nil when the connection still
// works (the request failed alone) or mcpdeck ended it. A loss the monitor
// has not handled yet is handled here, so the error can say what happens
// next.
func (c *callParts) lostDuring(ctx context.Context, t callTarget, err error) error {
	e := c.e
	if !e.errs.broke(err) || !ended(ctx, t.conn) {
		return nil
	}
	cause := t.conn.Err()
	if cause == nil || errors.Is(cause, transports.ErrClosed) {
		cause = err // the engine closed it after this request's error
	}
	var lost *callerr.ConnectionLostError
	e.ifEntry(t.name, func(en *entry) {
		if en.conn.conn == t.conn {
			e.run.lostLocked(en, t.gen, cause)
		}
		sh := en.st.Shown()
		lost = &callerr.ConnectionLostError{State: sh.State, Reason: sh.Reason, Err: err}
		if !errors.Is(cause, transports.ErrConnectionLost) { // says nothing more than "lost"
			lost.Cause = e.errs.text(en, cause)
		}
	})
	if lost == nil {
		return nil
	}
	return lost
}

// ended waits up to lossGrace for s to end, and says no as soon as s
// answers a ping: the connection works, only the request failed.
func ended(ctx context.Context, s session) bool {
	ctx, cancel := context.WithTimeout(ctx, lossGrace)
	defer cancel()
	alive := make(chan struct{})
	go func() {
		if s.Ping(ctx) == nil {
			close(alive)
		}
	}()
	select {
	case <-s.Done():
		return true
	case <-alive:
	case <-ctx.Done():
	}
	select { // an end that came with the answer wins: select picks either
	case <-s.Done():
		return true
	default:
		return false
	}
}
