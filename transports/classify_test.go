package transports

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"syscall"
	"testing"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

func opErr(errno syscall.Errno) error {
	addr := &net.TCPAddr{IP: net.IPv4(10, 0, 0, 1), Port: 443}
	return &url.Error{Op: "Post", URL: "https://10.0.0.1/mcp", Err: &net.OpError{
		Op: "dial", Net: "tcp", Addr: addr, Err: &os.SyscallError{Syscall: "connect", Err: errno},
	}}
}

func TestClassifyAndHumanize(t *testing.T) {
	wrap := func(err error) error { return transport.NewError(fmt.Errorf("failed to send request: %w", err)) }
	cases := []struct {
		name  string
		err   error
		class Class
		human string
	}{
		{"refused", wrap(opErr(syscall.ECONNREFUSED)), ClassTerminal, "connection refused at 10.0.0.1:443: is the server running?"},
		{"unreachable", opErr(syscall.EHOSTUNREACH), ClassTerminal, "the host at 10.0.0.1:443 cannot be reached: check the network or the URL"},
		{"dns", &url.Error{Op: "Get", URL: "http://nowhere.invalid", Err: &net.DNSError{Err: "no such host", Name: "nowhere.invalid", IsNotFound: true}}, ClassTerminal, `cannot find host "nowhere.invalid" (DNS lookup failed): check the URL`},
		{"reset", wrap(opErr(syscall.ECONNRESET)), ClassTransient, "the server reset the connection at 10.0.0.1:443"},
		{"closed idle", wrap(&url.Error{Op: "Post", URL: "http://10.0.0.1:443/mcp", Err: errors.New("http: server closed idle connection")}), ClassTransient, "the server at 10.0.0.1:443 closed the connection before answering"},
		{"closed idle, ws", fmt.Errorf("websocket handshake: %w", fmt.Errorf("failed to WebSocket dial: failed to send handshake request: %w", &url.Error{Op: "Get", URL: "http://10.0.0.1:443/ws", Err: errors.New("GET http://10.0.0.1:443/ws: http: server closed idle connection")})), ClassTransient, "the server at 10.0.0.1:443 closed the connection before answering"},
		{"timedout", opErr(syscall.ETIMEDOUT), ClassTransient, "the connection at 10.0.0.1:443 timed out"},
		{"pipe", fmt.Errorf("write: %w", syscall.EPIPE), ClassTransient, "the connection broke while sending"},
		{"eof", fmt.Errorf("read: %w", io.ErrUnexpectedEOF), ClassTransient, "the connection to the server was lost"},
		{"401", wrap(&transport.AuthorizationRequiredError{}), ClassAuth, "the server needs you to log in (HTTP 401)"},
		{"oauth", transport.ErrOAuthAuthorizationRequired, ClassAuth, "the server needs you to log in (HTTP 401)"},
		{"status403", errors.New("request failed with status 403: insufficient_scope"), ClassAuth, "the server refused the request (HTTP 403): your sign-in lacks a permission it needs; sign in again to grant it"},
		{"own403", &HTTPStatusError{Method: "GET", URL: "http://h/mcp", Status: 403}, ClassAuth, "the server refused the request (HTTP 403): your sign-in lacks a permission it needs; sign in again to grant it"},
		{"expired", wrap(transport.ErrSessionTerminated), ClassSessionExpired, "the server ended the session (it may have restarted); a new session is needed"},
		{"status404", errors.New("request failed with status 404: session not found"), ClassSessionExpired, "the server ended the session (it may have restarted); a new session is needed"},
		{"status503", errors.New("request failed with status 503: busy"), ClassTransient, "the server answered HTTP 503: busy"},
		{"protocol", &ProtocolError{Reason: "invalid JSON", Snippet: "{oops"}, ClassProtocol, "the server sent a message that is not valid MCP: invalid JSON"},
		{"json", wrap(&json.SyntaxError{Offset: 3}), ClassProtocol, "the server sent a message that is not valid MCP: "},
		{"exit", &ExitError{Code: 2, StderrTail: []string{"", "Error: missing API key", "  "}}, ClassExited, "the server process exited with code 2: Error: missing API key"},
		{"signal", &ExitError{Code: -1, Signal: "SIGKILL"}, ClassExited, "the server process was killed by signal SIGKILL"},
		{"notfound", fmt.Errorf("start: %w", &exec.Error{Name: "foo", Err: exec.ErrNotFound}), ClassTerminal, `command "foo" not found on PATH`},
		{"noexec", &os.PathError{Op: "fork/exec", Path: "/x/srv", Err: syscall.EACCES}, ClassTerminal, `command "/x/srv" is not executable (permission denied)`},
		{"deadline", wrap(context.DeadlineExceeded), ClassTimeout, "the server did not answer in time"},
		{"canceled", context.Canceled, ClassCanceled, "the request was cancelled"},
		{"rpc", fmt.Errorf("%w: unknown tool", mcp.ErrInvalidParams), ClassRPC, "the server answered with an error: invalid params: unknown tool"},
		{"closed", ErrClosed, ClassTransient, "the connection was closed"},
		{"legacy", transport.ErrLegacySSEServer, ClassProtocol, `the server refused a streamable HTTP connection; it may only speak the older SSE transport (try "type": "sse")`},
		{"unknown", errors.New("something odd\nsecond line\x1b[31m"), ClassUnknown, "something odd second line[31m"},
		{"wrapped twice", transport.NewError(fmt.Errorf("failed to send request: %w", fmt.Errorf("failed to send request: %w", errors.New("tls: bad certificate")))), ClassUnknown, "tls: bad certificate"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := Classify(tc.err); got != tc.class {
				t.Errorf("Classify = %v, want %v", got, tc.class)
			}
			if tc.name == "json" {
				return // the syntax error text is the json package's
			}
			if got := Humanize(tc.err); got != tc.human {
				t.Errorf("Humanize = %q, want %q", got, tc.human)
			}
		})
	}
}

func TestWrapMatchesSentinels(t *testing.T) {
	if !errors.Is(Wrap(transport.ErrSessionTerminated), ErrSessionExpired) {
		t.Error("session terminated is not ErrSessionExpired")
	}
	if !errors.Is(Wrap(&transport.AuthorizationRequiredError{}), ErrAuthRequired) {
		t.Error("401 is not ErrAuthRequired")
	}
	if !errors.Is(Wrap(&json.SyntaxError{}), ErrProtocol) {
		t.Error("syntax error is not ErrProtocol")
	}
	var exit *ExitError
	if !errors.As(Wrap(fmt.Errorf("x: %w", &ExitError{Code: 1})), &exit) || exit.Code != 1 {
		t.Error("ExitError not reachable through Wrap")
	}
	if Wrap(nil) != nil || Humanize(nil) != "" {
		t.Error("nil handling")
	}
	if ClassSessionExpired.String() != "session-expired" || Class(99).String() != "class(99)" {
		t.Error("Class.String")
	}
}
