package transports

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/model"
)

func TestHTTPExercise(t *testing.T) {
	url, _ := startNet(t, "-http")
	rec := newRecorder()
	c := open(t, model.ServerConfig{Type: model.TransportHTTP, URL: url}, fullOpts(rec))
	if c.Client().GetSessionId() == "" {
		t.Fatal("no session id")
	}
	exercise(t, c, rec, true)
}

func TestHTTPOldServerConnectsWithoutDiscoveryWait(t *testing.T) {
	url, _ := startNet(t, "-http", "-old-protocol", "2025-03-26")
	start := time.Now()
	// This server ignores server/discover; the remembered version skips it.
	c := open(t, model.ServerConfig{Type: model.TransportHTTP, URL: url}, Options{ProtocolVersion: "2025-03-26"})
	if got := c.Init().ProtocolVersion; got != "2025-03-26" {
		t.Fatalf("negotiated %q", got)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("connect took %s", d)
	}
}

func TestHTTPSessionExpiry(t *testing.T) {
	for _, style := range []string{"404", "jsonrpc"} {
		t.Run(style, func(t *testing.T) {
			args := []string{"-expire-after", "3"}
			if style == "jsonrpc" {
				args = append(args, "-expire-jsonrpc")
			}
			url, _ := startNet(t, "-http", args...)
			c := open(t, model.ServerConfig{Type: model.TransportHTTP, URL: url}, Options{})
			first := c.Client().GetSessionId()
			var err error
			for range 5 {
				if _, err = call(t.Context(), c, "echo", map[string]any{"text": "x"}); err != nil {
					break
				}
			}
			if Classify(err) != ClassSessionExpired || !errors.Is(Wrap(err), ErrSessionExpired) {
				t.Fatalf("err = %v, class %v", err, Classify(err))
			}
			if err := c.Reinit(t.Context()); err != nil {
				t.Fatalf("Reinit: %v", err)
			}
			if c.Client().GetSessionId() == first {
				t.Fatal("session id unchanged after Reinit")
			}
			mustCall(t, c, "echo", map[string]any{"text": "again"})
		})
	}
}

func TestHTTPRefusedIsTerminal(t *testing.T) {
	_, err := NewFactory().Open(t.Context(), "down", model.ServerConfig{Type: model.TransportHTTP, URL: "http://127.0.0.1:9/mcp"}, Options{})
	if Classify(err) != ClassTerminal {
		t.Fatalf("err = %v, class %v", err, Classify(err))
	}
	if got := Humanize(err); got != "connection refused at 127.0.0.1:9: is the server running?" {
		t.Fatalf("Humanize = %q", got)
	}
}

func TestHTTPServerGoneClosesDone(t *testing.T) {
	url, _ := startNet(t, "-http")
	c := open(t, model.ServerConfig{Type: model.TransportHTTP, URL: url}, Options{})
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	_, _ = call(ctx, c, "crash", nil)
	// The loss is seen when the event stream fails three times in a row,
	// a second apart: about 3 s here, longer on a loaded machine or under
	// Wine (where a dying process's socket can linger). The bound only
	// keeps a real failure from hanging the run.
	select {
	case <-c.Done():
	case <-time.After(time.Minute):
		t.Fatal("loss not detected within a minute")
	}
	if Classify(c.Err()) != ClassTerminal {
		t.Fatalf("Err = %v", c.Err())
	}
}

func TestHTTPRequestTimeout(t *testing.T) {
	url, _ := startNet(t, "-http")
	c := open(t, model.ServerConfig{Type: model.TransportHTTP, URL: url}, Options{RequestTimeout: 300 * time.Millisecond})
	_, err := call(t.Context(), c, "slow", map[string]any{"ms": 3000})
	if Classify(err) != ClassTimeout {
		t.Fatalf("err = %v, class %v", err, Classify(err))
	}
	if got := Humanize(err); got != "the server did not answer within 300ms" {
		t.Fatalf("Humanize = %q", got)
	}
}

func TestHTTPUnauthorized(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="http://x/.well-known/oauth-protected-resource"`)
		http.Error(w, "no", http.StatusUnauthorized)
	}))
	t.Cleanup(srv.Close)
	for _, kind := range []model.Transport{model.TransportHTTP, model.TransportSSE} {
		_, err := NewFactory().Open(t.Context(), "auth", model.ServerConfig{Type: kind, URL: srv.URL}, Options{})
		if Classify(err) != ClassAuth || !errors.Is(err, ErrAuthRequired) {
			t.Fatalf("%s: err = %v, class %v", kind, err, Classify(err))
		}
		if got := Humanize(err); got != "the server needs you to log in (HTTP 401)" {
			t.Fatalf("Humanize = %q", got)
		}
	}
}

// TestHTTPHeaders checks static headers, HeaderFunc and HTTPClient injection
// against an in-process streamable server.
func TestHTTPHeaders(t *testing.T) {
	var mu sync.Mutex
	seen := map[string]string{}
	mcpSrv := server.NewMCPServer("hdr", "1", server.WithToolCapabilities(false))
	mcpSrv.AddTool(mcp.NewTool("noop"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(""), nil
	})
	h := server.NewStreamableHTTPServer(mcpSrv)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen["static"] = r.Header.Get("X-Static")
		seen["dynamic"] = r.Header.Get("X-Dynamic")
		seen["injected"] = r.Header.Get("X-Injected")
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close) // after the connection's cleanup
	hc := &http.Client{Transport: injectHeader{base: srv.Client().Transport}}
	c := open(t, model.ServerConfig{Type: model.TransportHTTP, URL: srv.URL, Headers: map[string]string{"X-Static": "s"}},
		Options{
			HTTPClient: hc,
			HeaderFunc: func(context.Context) (map[string]string, error) { return map[string]string{"X-Dynamic": "d"}, nil },
		})
	if _, err := c.Client().ListTools(t.Context(), mcp.ListToolsRequest{}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if seen["static"] != "s" || seen["dynamic"] != "d" || seen["injected"] != "i" {
		t.Fatalf("headers seen: %v", seen)
	}

	_, err := NewFactory().Open(t.Context(), "hf", model.ServerConfig{Type: model.TransportHTTP, URL: srv.URL},
		Options{HeaderFunc: func(context.Context) (map[string]string, error) { return nil, errors.New("helper exploded") }})
	if err == nil || !strings.Contains(err.Error(), "headers helper failed: helper exploded") {
		t.Fatalf("err = %v", err)
	}
}

type injectHeader struct{ base http.RoundTripper }

func (i injectHeader) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("X-Injected", "i")
	return i.base.RoundTrip(r)
}

func TestSSEExercise(t *testing.T) {
	url, _ := startNet(t, "-sse")
	rec := newRecorder()
	c := open(t, model.ServerConfig{Type: model.TransportSSE, URL: url}, fullOpts(rec))
	if c.Client().GetClientCapabilities().Elicitation == nil {
		t.Fatal("elicitation not declared over SSE, which answers server requests (sserequests.go)")
	}
	// mcp-go's SSE server (the fault server's) cannot send requests; that
	// they are answered is tested against server-everything
	// (engine/e2e.TestEverything/sse/elicitation) and TestSSERequestsAreTakenOutAndAnswered.
	exercise(t, c, rec, false)
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	if _, err := call(ctx, c, "crash", nil); err == nil || ctx.Err() != nil {
		t.Fatalf("call in flight when the server died: %v", err)
	}
	select {
	case <-c.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("SSE loss not detected")
	}
	if !errors.Is(c.Err(), ErrConnectionLost) {
		t.Fatalf("Err = %v", c.Err())
	}
}

func TestSSESessionExpiry(t *testing.T) {
	url, _ := startNet(t, "-sse", "-expire-after", "2")
	// Remembered as 2025-11-25: no server/discover probe counts against
	// the session's two requests.
	c := open(t, model.ServerConfig{Type: model.TransportSSE, URL: url}, Options{ProtocolVersion: "2025-11-25"})
	var err error
	for range 4 {
		if _, err = call(t.Context(), c, "echo", map[string]any{"text": "x"}); err != nil {
			break
		}
	}
	if Classify(err) != ClassSessionExpired {
		t.Fatalf("err = %v, class %v", err, Classify(err))
	}
	if err := c.Reinit(t.Context()); !errors.Is(err, ErrSessionExpired) {
		t.Fatalf("Reinit over SSE: %v", err)
	}
}

func TestHTTPStatelessServer(t *testing.T) {
	url, _ := startNet(t, "-http", "-stateless")
	c := open(t, model.ServerConfig{Type: model.TransportHTTP, URL: url}, Options{})
	if got := mustCall(t, c, "add", map[string]any{"a": 1, "b": 1}); got != "2" {
		t.Fatalf("add = %q", got)
	}
	select {
	case <-c.Done():
		t.Fatalf("lost: %v", c.Err())
	default:
	}
}

func TestHTTPDropMidCallIsTransient(t *testing.T) {
	url, _ := startNet(t, "-http")
	c := open(t, model.ServerConfig{Type: model.TransportHTTP, URL: url}, Options{})
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	_, err := call(ctx, c, "drop", nil)
	if Classify(err) != ClassTransient || ctx.Err() != nil {
		t.Fatalf("err = %v, class %v", err, Classify(err))
	}
	mustCall(t, c, "echo", map[string]any{"text": "next call works"})
}

func TestHTTPSlowServer(t *testing.T) {
	url, _ := startNet(t, "-http", "-delay", "50ms")
	c := open(t, model.ServerConfig{Type: model.TransportHTTP, URL: url}, Options{})
	start := time.Now()
	mustCall(t, c, "echo", map[string]any{"text": "slowly"})
	if d := time.Since(start); d < 50*time.Millisecond {
		t.Fatalf("answer after %s despite -delay 50ms", d)
	}
}
