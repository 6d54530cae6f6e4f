package inorder

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// TestLateProgressKeepsTheResult: a notification sent after the handler
// returned, once mcp-go chose to answer with plain JSON but before it
// wrote its status (a server's progress relayed after its result, as
// serve relays it), upgrades the response to SSE. The result must still
// reach the client, as an event after that notification: mcp-go's JSON
// body written raw on the SSE stream was no event at all, and the client
// failed the call with "unexpected nil response" (issue 35). The hook
// below sends the notification at exactly that moment, for clients of
// both protocol eras.
func TestLateProgressKeepsTheResult(t *testing.T) {
	for _, tc := range []struct {
		name    string
		version string // the client's protocol; "" is mcp-go's default
	}{
		{"2025-11-25", mcp.ProtocolVersion20251125},
		{"2026-07-28", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := server.NewMCPServer("t", "1", server.WithToolCapabilities(true))
			srv.AddTool(mcp.NewTool("quick"), func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				if l, ok := ctx.Value(lateKey{}).(*late); ok {
					l.handled(ctx, r.Params.Meta.ProgressToken)
				}
				return mcp.NewToolResultText("done"), nil
			})
			h := server.NewStreamableHTTPServer(srv, server.WithStateful(true))
			ts := httptest.NewServer(lateHook(HTTP(sendAtStatus(srv, h))))
			defer func() {
				ts.Close()
				_ = h.Shutdown(context.Background())
			}()

			for call := 1; call <= 3; call++ {
				// A new client each time: a legacy session answers with
				// SSE for good once it was sent a notification.
				got := callQuick(t, ts.URL, tc.version, call)
				want := fmt.Sprintf("progress late-%d; result done", call)
				if got != want {
					t.Fatalf("call %d: the client got %q, want %q", call, got, want)
				}
			}
		})
	}
}

// callQuick calls tool quick with progress token late-N from a new mcp-go
// client and says what it got: the progress, then the result or error.
func callQuick(t *testing.T, url, version string, n int) string {
	t.Helper()
	tr, err := transport.NewStreamableHTTP(url)
	if err != nil {
		t.Fatal(err)
	}
	var opts []client.ClientOption
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.ProtocolVersion20260728
	if version != "" {
		opts = append(opts, client.WithProtocolVersion(version))
		init.Params.ProtocolVersion = version
	}
	c := client.NewClient(tr, opts...)
	defer func() { _ = c.Close() }()
	var mu sync.Mutex
	var notes []string
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == string(mcp.MethodNotificationProgress) {
			mu.Lock()
			notes = append(notes, fmt.Sprintf("progress %v", n.Params.AdditionalFields["progressToken"]))
			mu.Unlock()
		}
	})
	if err := c.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	init.Params.ClientInfo = mcp.Implementation{Name: "t", Version: "1"}
	if _, err := c.Initialize(t.Context(), init); err != nil {
		t.Fatal(err)
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = "quick"
	req.Params.Meta = &mcp.Meta{ProgressToken: fmt.Sprintf("late-%d", n)}
	res, err := c.CallTool(t.Context(), req)
	mu.Lock()
	defer mu.Unlock()
	switch {
	case err != nil:
		notes = append(notes, "error "+err.Error())
	case len(res.Content) == 0:
		notes = append(notes, "empty result")
	default:
		tc, _ := res.Content[0].(mcp.TextContent)
		notes = append(notes, "result "+tc.Text)
	}
	return strings.Join(notes, "; ")
}

type lateKey struct{}

// late is one request's place for the hooks: the tool handler's context
// and progress token, and when the response's first bytes went out.
type late struct {
	mu    sync.Mutex
	ctx   context.Context
	token mcp.ProgressToken
	wrote chan struct{} // closed at the response's first write
	once  sync.Once
}

func (l *late) handled(ctx context.Context, tok mcp.ProgressToken) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ctx, l.token = ctx, tok
}

// lateHook gives each request a late, closing its wrote at the first
// write to the real response (where the Stream and the server write).
func lateHook(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l := &late{wrote: make(chan struct{})}
		next.ServeHTTP(&firstWrite{ResponseWriter: w, l: l}, r.WithContext(context.WithValue(r.Context(), lateKey{}, l)))
	})
}

type firstWrite struct {
	http.ResponseWriter
	l *late
}

func (f *firstWrite) WriteHeader(code int) {
	f.l.once.Do(func() { close(f.l.wrote) })
	f.ResponseWriter.WriteHeader(code)
}

func (f *firstWrite) Write(p []byte) (int, error) {
	f.l.once.Do(func() { close(f.l.wrote) })
	return f.ResponseWriter.Write(p)
}

func (f *firstWrite) Flush() { f.ResponseWriter.(http.Flusher).Flush() }

// sendAtStatus sits between HTTP and mcp-go: when mcp-go, having handled
// a tool call, sends its status for a plain JSON answer, a progress
// notification is sent first and the hook waits until it went out.
func sendAtStatus(srv *server.MCPServer, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l, _ := r.Context().Value(lateKey{}).(*late)
		next.ServeHTTP(&statusHook{ResponseWriter: w, srv: srv, l: l, done: r.Context().Done()}, r)
	})
}

type statusHook struct {
	http.ResponseWriter
	srv  *server.MCPServer
	l    *late
	done <-chan struct{}
}

func (s *statusHook) WriteHeader(code int) {
	s.l.mu.Lock()
	ctx, tok := s.l.ctx, s.l.token
	s.l.mu.Unlock()
	if ctx != nil && s.Header().Get("Content-Type") == "application/json" {
		if err := Send(ctx, s.srv, string(mcp.MethodNotificationProgress), map[string]any{"progressToken": tok, "progress": 1}); err == nil {
			select {
			case <-s.l.wrote:
			case <-s.done:
			}
		}
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusHook) Flush() { s.ResponseWriter.(http.Flusher).Flush() }

// TestSSEEventIsOneDataLine: a reframed answer may be JSON with line
// breaks between its tokens (an encoder's trailing newline, indentation);
// each would end the data line and cut the message.
func TestSSEEventIsOneDataLine(t *testing.T) {
	got := string(sseEvent([]byte("{\"a\":\r\n 1,\n\"b\":\"x\\ny\"}")))
	want := "event: message\ndata: {\"a\":   1, \"b\":\"x\\ny\"}\n\n"
	if got != want {
		t.Fatalf("sseEvent = %q, want %q", got, want)
	}
}
