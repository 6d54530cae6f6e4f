package transports

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"

	"github.com/coder/websocket"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/launch"
	"github.com/mcpdeck/mcpdeck/model/platform"
)

// Class says what the engine should do about an error.
type Class int

const (
	// ClassUnknown is anything we cannot place; treat it like a failure.
	ClassUnknown Class = iota
	// ClassTransient is a reset, a network timeout or a broken pipe: count it,
	// three in a row close the transport and reconnect.
	ClassTransient
	// ClassTerminal is a refused or unreachable address, a DNS failure or a
	// missing command: close at once.
	ClassTerminal
	// ClassAuth is HTTP 401 (the server needs the person to log in) or 403
	// (the sign-in lacks a permission: OAuth step-up asks for more scope).
	// A 403 is about credentials, not the connection, so reconnecting
	// cannot help.
	ClassAuth
	// ClassSessionExpired is HTTP 404 / -32001 / session terminated: re-initialize.
	ClassSessionExpired
	// ClassProtocol is a malformed message from the server.
	ClassProtocol
	// ClassExited is a stdio server process that ended.
	ClassExited
	// ClassTimeout is a request that got no answer in time.
	ClassTimeout
	// ClassCanceled is a request we cancelled ourselves (context.Canceled).
	ClassCanceled
	// ClassRPC is a JSON-RPC error answered by the server: the connection is fine.
	ClassRPC
	// ClassTooLarge is a message over the size limit (ErrMessageTooLarge):
	// the connection was ended, and reconnecting would only fetch the same
	// message again.
	ClassTooLarge
)

var classNames = [...]string{
	"unknown", "transient", "terminal", "auth", "session-expired",
	"protocol", "exited", "timeout", "canceled", "rpc", "too-large",
}

// String returns the class name used in logs and JSON.
func (c Class) String() string {
	if c < 0 || int(c) >= len(classNames) {
		return "class(" + strconv.Itoa(int(c)) + ")"
	}
	return classNames[c]
}

// statusRe finds the HTTP status in mcp-go's unwrapped "request failed with
// status 404: ..." errors, which carry no type we could match.
var statusRe = regexp.MustCompile(`(?:status(?: code)?:?) (\d{3})\b`)

// Classify places err into a Class. It understands our own error types,
// mcp-go's transport errors, syscall errnos, net and DNS errors, websocket
// close errors and JSON-RPC error sentinels. nil is ClassUnknown.
func Classify(err error) Class {
	if err == nil {
		return ClassUnknown
	}
	var ce *Error
	if errors.As(err, &ce) {
		return ce.Class
	}
	if c, ok := classifyOwn(err); ok {
		return c
	}
	if c, ok := classifyNet(err); ok {
		return c
	}
	if c, ok := classifyRPC(err); ok {
		return c
	}
	if m := statusRe.FindStringSubmatch(err.Error()); m != nil {
		return classifyStatus(m[1])
	}
	return ClassUnknown
}

func classifyOwn(err error) (Class, bool) {
	var exit *ExitError
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var unsup mcp.UnsupportedProtocolVersionError
	var status *HTTPStatusError
	var version *VersionError
	var refused *RefusedError
	switch {
	case errors.Is(err, ErrMessageTooLarge):
		return ClassTooLarge, true
	case errors.As(err, &exit):
		return ClassExited, true
	case errors.As(err, &version):
		return ClassProtocol, true
	case errors.As(err, &refused):
		return refused.class(), true
	case errors.As(err, &status):
		return classifyStatus(strconv.Itoa(status.Status)), true
	case errors.Is(err, ErrAuthRequired),
		errors.Is(err, transport.ErrAuthorizationRequired),
		errors.Is(err, transport.ErrOAuthAuthorizationRequired),
		errors.Is(err, transport.ErrUnauthorized):
		return ClassAuth, true
	case errors.Is(err, ErrSessionExpired), errors.Is(err, transport.ErrSessionTerminated):
		return ClassSessionExpired, true
	case errors.Is(err, ErrProtocol), errors.As(err, &syn), errors.As(err, &typ),
		errors.As(err, &unsup), errors.Is(err, transport.ErrLegacySSEServer):
		return ClassProtocol, true
	case errors.Is(err, model.ErrWantsHeader), errors.Is(err, model.ErrHeaderRefused):
		return ClassTerminal, true // a token is missing from the definition: reconnecting cannot help
	case errors.Is(err, ErrNoBuiltin), errors.Is(err, errors.ErrUnsupported),
		errors.Is(err, ErrEditorRefused), errors.Is(err, ErrNotLoopback):
		return ClassTerminal, true
	case errors.Is(err, context.Canceled):
		return ClassCanceled, true
	case errors.Is(err, context.DeadlineExceeded):
		return ClassTimeout, true
	case errors.Is(err, ErrClosed), errors.Is(err, ErrConnectionLost),
		errors.Is(err, transport.ErrTransportClosed):
		return ClassTransient, true
	}
	var rt *RequestTimeoutError
	if errors.As(err, &rt) {
		return ClassTimeout, true
	}
	return ClassUnknown, false
}

// serverClosedIdle is net/http's wording, its error unexported, for a
// kept-alive connection the server closed as a request went out on it:
// nothing was answered, and the next request opens a new connection.
const serverClosedIdle = "http: server closed idle connection"

// closedIdle reports whether err is net/http's serverClosedIdle.
func closedIdle(err error) bool { return strings.Contains(err.Error(), serverClosedIdle) }

func classifyNet(err error) (Class, bool) {
	var dns *net.DNSError
	var execErr *exec.Error
	switch {
	case closedIdle(err):
		return ClassTransient, true
	case errors.As(err, &execErr), errors.Is(err, exec.ErrNotFound),
		errors.Is(err, platform.ErrNotFound), errors.Is(err, launch.ErrBlocked):
		return ClassTerminal, true
	case platform.IsErrno(err, syscall.ECONNREFUSED), platform.IsErrno(err, syscall.EHOSTUNREACH),
		platform.IsErrno(err, syscall.ENETUNREACH), errors.As(err, &dns):
		return ClassTerminal, true
	case platform.IsErrno(err, syscall.ECONNRESET), platform.IsErrno(err, syscall.ETIMEDOUT),
		platform.IsErrno(err, syscall.EPIPE), platform.IsErrno(err, syscall.ECONNABORTED),
		errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF),
		errors.Is(err, net.ErrClosed), errors.Is(err, io.ErrClosedPipe):
		return ClassTransient, true
	case errors.Is(err, os.ErrDeadlineExceeded):
		return ClassTimeout, true
	case errors.Is(err, os.ErrNotExist), errors.Is(err, os.ErrPermission):
		// Only reached for exec failures: a missing or non-executable command.
		return ClassTerminal, true
	}
	if websocket.CloseStatus(err) != -1 {
		return ClassTransient, true
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return ClassTimeout, true
	}
	return ClassUnknown, false
}

func classifyRPC(err error) (Class, bool) {
	for _, s := range []error{
		mcp.ErrMethodNotFound, mcp.ErrInvalidParams, mcp.ErrInternalError,
		mcp.ErrResourceNotFound, mcp.ErrRequestInterrupted, mcp.ErrInvalidRequest,
		mcp.ErrParseError,
	} {
		if errors.Is(err, s) {
			return ClassRPC, true
		}
	}
	var url mcp.URLElicitationRequiredError
	if errors.As(err, &url) {
		return ClassRPC, true
	}
	return ClassUnknown, false
}

func classifyStatus(code string) Class {
	switch n, _ := strconv.Atoi(code); {
	case n == 401 || n == 403:
		return ClassAuth
	case n == 404:
		return ClassSessionExpired
	case n == 408 || n == 429 || n >= 500:
		return ClassTransient
	case n >= 400:
		return ClassTerminal
	default:
		return ClassUnknown
	}
}

// Broke reports whether err says that the connection a request travelled
// on ended under it: the server process exited, its stream, pipe or socket
// ended or was reset, or it no longer accepts connections. A request that
// failed so is worth checking against its connection (the engine then
// reports the loss, not the request's own error). ErrClosed, a connection
// mcpdeck closed itself, is no such end.
func Broke(err error) bool {
	var exit *ExitError
	switch {
	case errors.Is(err, ErrClosed):
		return false
	case errors.As(err, &exit), errors.Is(err, ErrConnectionLost),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		platform.IsErrno(err, syscall.ECONNRESET), platform.IsErrno(err, syscall.ECONNABORTED),
		platform.IsErrno(err, syscall.EPIPE), platform.IsErrno(err, syscall.ECONNREFUSED):
		return true
	}
	return websocket.CloseStatus(err) != -1
}
