package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// callError turns a call failure into a sentence naming the server. The
// transport's own text (mcp-go's "transport error: failed to send request:
// ...") is left out of the message; errors.Is and errors.As still reach it.
func (e *Engine) callError(ctx context.Context, server, what string, err error) error {
	if cerr := ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
		err = fmt.Errorf("%w (%w)", cerr, err)
	}
	var why string
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		why = fmt.Sprintf("no answer within %s (MCP_TOOL_TIMEOUT)", e.set.toolTimeout)
	case errors.Is(err, context.Canceled):
		why = "cancelled"
	case inputWhy(err) != "":
		why = inputWhy(err)
	default:
		why = e.errs.humanize(err)
	}
	e.mu.Lock()
	if en := e.byName[server]; en != nil {
		why = en.redact(why)
		if cls, _ := e.errs.classify(err); cls == classAuth {
			if se := e.missingScopeLocked(en); se != nil {
				e.mu.Unlock()
				return &CallError{Message: fmt.Sprintf("%s on %s: %s", what, server, se), Err: errors.Join(se, err)}
			}
		}
	} else {
		why = textsafe.NewMasker().Mask(why) // the server is gone: its patterns only
	}
	e.mu.Unlock()
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
// once; auth errors move the server to needs-auth.
func (e *Engine) do(ctx context.Context, t callTarget, f func(session) error) error {
	done := e.busy(t.name)
	defer done()
	err := f(t.conn)
	if err == nil {
		e.noteSuccess(t)
		return nil
	}
	if ctx.Err() != nil {
		return err // the caller's cancel or timeout, not the server's fault
	}
	cls, _ := e.errs.classify(err)
	switch cls {
	case classSessionExpired:
		if rerr := t.conn.Reinit(ctx); rerr != nil {
			// The transport cannot start a new session in place (legacy
			// SSE): reconnect, then retry once on the new connection.
			nt, cerr := e.reconnectFor(ctx, t)
			if cerr != nil {
				return fmt.Errorf("session expired and reconnecting failed: %w", cerr)
			}
			t = nt
		}
		err = f(t.conn)
		if err == nil {
			e.noteSuccess(t)
			return nil
		}
	case classOther, classTransient, classTerminal, classAuth, classExited, classTimeout, classTooLarge:
	}
	e.noteFailure(t, err)
	return err
}

// noteSuccess tells step a request on t's connection worked.
func (e *Engine) noteSuccess(t callTarget) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if en := e.byName[t.name]; en != nil && !e.closed {
		e.feed(en, evCallSucceeded{at: now(), gen: t.gen}, nil)
	}
}

// noteFailure tells step a request on t's connection failed.
func (e *Engine) noteFailure(t callTarget, err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	en := e.byName[t.name]
	if e.closed || en == nil || en.conn != t.conn {
		return
	}
	burst := fmt.Errorf("%d errors in a row: %w", transientLimit, err)
	e.feed(en, evCallFailed{at: now(), gen: t.gen, fail: e.describe(en, err), burst: e.describe(en, burst), jitter: e.rnd()}, nil)
}

// reconnectFor replaces t's connection (unless that already happened) and
// waits until the server is connected again, or has failed.
func (e *Engine) reconnectFor(ctx context.Context, t callTarget) (callTarget, error) {
	e.mu.Lock()
	if en := e.byName[t.name]; en != nil && !e.closed && en.conn == t.conn {
		e.feed(en, evSessionExpired{at: now(), gen: t.gen}, nil)
	}
	e.mu.Unlock()
	for {
		e.mu.Lock()
		if e.closed {
			e.mu.Unlock()
			return callTarget{}, ErrClosed
		}
		en := e.byName[t.name]
		if en == nil {
			e.mu.Unlock()
			return callTarget{}, fmt.Errorf("%w: %s", ErrUnknownServer, t.name)
		}
		switch en.s.State {
		case model.StateConnected:
			nt := callTarget{name: t.name, gen: en.st.gen, conn: en.conn}
			e.mu.Unlock()
			return nt, nil
		case model.StateFailed, model.StateNeedsAuth, model.StateDisabled:
			err := fmt.Errorf("%w: %s is %s: %s", ErrNotConnected, t.name, en.s.State, en.s.Error)
			e.mu.Unlock()
			return callTarget{}, err
		case model.StatePending:
		}
		changed := e.changed
		e.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			return callTarget{}, ctx.Err()
		}
	}
}
