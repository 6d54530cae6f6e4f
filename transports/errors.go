package transports

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Sentinel errors. Errors returned by Open and Wrap match them with errors.Is
// according to their class, so callers need not know mcp-go's error types.
var (
	// ErrAuthRequired means the server answered HTTP 401: the person must log in.
	ErrAuthRequired = errors.New("authorization required")
	// ErrSessionExpired means the server no longer knows our session (HTTP 404,
	// JSON-RPC -32001, or mcp-go's session-terminated error): re-initialize.
	ErrSessionExpired = errors.New("session expired")
	// ErrProtocol means the server sent something that is not valid JSON-RPC/MCP.
	ErrProtocol = errors.New("protocol error")
	// ErrClosed is Conn.Err after Conn.Close: we ended the connection ourselves.
	ErrClosed = errors.New("connection closed")
	// ErrConnectionLost means the transport's stream ended without a reason we
	// could classify more precisely (websocket close, SSE stream end).
	ErrConnectionLost = errors.New("connection lost")
	// ErrNoBuiltin means an sdk server names a built-in server that does not exist.
	ErrNoBuiltin = errors.New("no such built-in server")
)

// SessionExpiredCode is the JSON-RPC error code some servers use for an
// unknown or expired session.
const SessionExpiredCode = -32001

// ExitError reports that a stdio server process ended. It is Conn.Err when the
// child exits by itself, and the error of requests that were in flight.
type ExitError struct {
	Code       int      // exit status; -1 when killed by a signal
	Signal     string   // signal name when killed by a signal, else ""
	StderrTail []string // last stderr lines (at most exitTailLines)
}

// Error names the exit status and the last stderr line, the usual clue.
func (e *ExitError) Error() string {
	var b strings.Builder
	if e.Signal != "" {
		fmt.Fprintf(&b, "server process was killed by signal %s", e.Signal)
	} else {
		fmt.Fprintf(&b, "server process exited with code %d", e.Code)
	}
	if last := e.StderrReason(); last != "" {
		b.WriteString(": ")
		b.WriteString(last)
	}
	return b.String()
}

// StderrReason returns the stderr line that best says why the process ended
// (see stderrReason), or "".
func (e *ExitError) StderrReason() string { return stderrReason(e.StderrTail) }

// ProtocolError describes a malformed message from the server. It matches
// ErrProtocol.
type ProtocolError struct {
	Reason  string // what was wrong, e.g. "invalid JSON"
	Snippet string // the start of the offending message, sanitized
	Err     error  // underlying parse error, if any
}

// Error renders reason and snippet.
func (e *ProtocolError) Error() string {
	s := "protocol error: " + e.Reason
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	if e.Snippet != "" {
		s += fmt.Sprintf(" (received %q)", e.Snippet)
	}
	return s
}

// Is makes errors.Is(err, ErrProtocol) true.
func (e *ProtocolError) Is(target error) bool { return target == ErrProtocol }

// Unwrap returns the parse error.
func (e *ProtocolError) Unwrap() error { return e.Err }

// RequestTimeoutError is returned when one HTTP request exceeds
// Options.RequestTimeout.
type RequestTimeoutError struct {
	Method string
	URL    string
	After  time.Duration
}

// Error names the request and the timeout.
func (e *RequestTimeoutError) Error() string {
	return fmt.Sprintf("%s %s: no answer within %s", e.Method, e.URL, e.After)
}

// Timeout reports true, like net.Error.
func (e *RequestTimeoutError) Timeout() bool { return true }

// HTTPStatusError is an unexpected HTTP status seen by our round tripper.
type HTTPStatusError struct {
	Method string
	URL    string
	Status int
}

// Error renders the status.
func (e *HTTPStatusError) Error() string {
	return fmt.Sprintf("%s %s: HTTP %d", e.Method, e.URL, e.Status)
}

// Is maps 401 to ErrAuthRequired and 404 to ErrSessionExpired.
func (e *HTTPStatusError) Is(target error) bool {
	switch target {
	case ErrAuthRequired:
		return e.Status == 401
	case ErrSessionExpired:
		return e.Status == 404
	}
	return false
}

// Error is an error with its class attached, as returned by Open and Wrap.
// errors.Is matches the sentinel of its class (ErrAuthRequired,
// ErrSessionExpired, ErrProtocol); errors.As reaches the cause.
type Error struct {
	Class Class
	Err   error
	// StderrTail holds the last stderr lines of a stdio server whose Open
	// failed (nil otherwise): often the only clue why.
	StderrTail []string
}

// Error returns the cause's text.
func (e *Error) Error() string { return e.Err.Error() }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Is matches the class sentinel.
func (e *Error) Is(target error) bool {
	switch target {
	case ErrAuthRequired:
		return e.Class == ClassAuth
	case ErrSessionExpired:
		return e.Class == ClassSessionExpired
	case ErrProtocol:
		return e.Class == ClassProtocol
	}
	return false
}

// Wrap attaches the class of err (see Classify), so that errors.Is against
// the sentinels works on any transport or mcp-go error. nil stays nil.
func Wrap(err error) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	return &Error{Class: Classify(err), Err: err}
}
