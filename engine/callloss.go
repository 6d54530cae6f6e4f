package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/transports"
)

// ErrConnectionLost means a request failed because its server's connection
// ended while it ran: the server went away mid-call. The error is a
// *ConnectionLostError, which says what mcpdeck does about it.
var ErrConnectionLost = errors.New("connection lost during the call")

// lossGrace is how long a request that failed on a broken connection waits
// for the transport to say whether the connection ended. The request often
// fails first: over HTTP the end shows at the event stream's next
// reconnect, a second after it broke. A ping answered meanwhile says at
// once that the connection still works (only the request's own stream
// broke), so such a failure is reported when it happens.
const lossGrace = 3 * time.Second

// ConnectionLostError is a request whose server's connection ended while
// it ran, with what the engine did about it: the server's state and reason
// once the loss was handled (pending with the reconnect attempt, or failed
// with why it stops).
type ConnectionLostError struct {
	Cause  string       // why the connection ended, in words (masked); "" when nothing more is known
	State  model.State  // the server's state once the loss was handled
	Reason model.Reason // and its reason
	Err    error        // the request's own error
	// Closed says mcpdeck itself closed the connection under the call (a
	// reconnect, a stop, a changed definition), not the server or the
	// network.
	Closed bool
}

// Error says that the connection was lost, why, and what happens next.
func (e *ConnectionLostError) Error() string {
	s := "the connection was lost during the call"
	if e.Closed {
		s = "the connection was closed during the call"
	}
	if e.Cause != "" {
		s += " (" + e.Cause + ")"
	}
	return s + "; " + e.next()
}

// next is what the engine does about the loss.
func (e *ConnectionLostError) next() string {
	r := e.Reason
	switch e.State {
	case model.StatePending:
		if r.Attempt > 0 && r.MaxAttempts > 0 {
			return fmt.Sprintf("reconnecting (attempt %d/%d)", r.Attempt, r.MaxAttempts)
		}
		return "reconnecting"
	case model.StateConnected:
		return "it has reconnected since: try again"
	case model.StateNeedsAuth:
		return "it needs you to sign in again"
	case model.StateFailed, model.StateDisabled:
	}
	if r.Kind == model.ReasonCrashLoop {
		return fmt.Sprintf("not reconnecting: it stopped %d times in a row within %s of connecting", r.Count, r.Window)
	}
	return "not reconnecting"
}

// Is makes errors.Is(err, ErrConnectionLost) true.
func (e *ConnectionLostError) Is(target error) bool { return target == ErrConnectionLost }

// Unwrap returns the request's own error.
func (e *ConnectionLostError) Unwrap() error { return e.Err }

// lostDuring returns a *ConnectionLostError when err failed a request on t
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
	var lost *ConnectionLostError
	e.ifEntry(t.name, func(en *entry) {
		if en.conn.conn == t.conn {
			e.run.lostLocked(en, t.gen, cause)
		}
		sh := en.st.Shown()
		lost = &ConnectionLostError{State: sh.State, Reason: sh.Reason, Err: err}
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
