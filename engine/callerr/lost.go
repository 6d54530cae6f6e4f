// Package callerr holds the errors a call can fail with that say, in a
// sentence a person understands, what happened to the server and what
// mcpdeck does next: the connection lost under the call, a scope the
// sign-in lacks. The engine decides when they apply and fills them in;
// errors.Is and errors.As find them in what it returns.
package callerr

import (
	"errors"
	"fmt"

	"github.com/mcpdeck/mcpdeck/model"
)

// ErrConnectionLost means a request failed because its server's connection
// ended while it ran: the server went away mid-call. The error is a
// *ConnectionLostError, which says what mcpdeck does about it.
var ErrConnectionLost = errors.New("connection lost during the call")

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
