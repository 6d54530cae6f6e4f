package transports

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/model"
)

// versionServer is a loopback streamable HTTP server built on mcp-go's that
// counts requests by JSON-RPC method. As "2026" it speaks 2026-07-28 only
// and refuses initialize the way such a server does (HTTP 400, -32022,
// supported ["2026-07-28"]); as "2025" it is an older server that refuses
// server/discover without a session, like the TypeScript SDK's.
type versionServer struct {
	url    string
	mu     sync.Mutex
	counts map[string]int
}

func (v *versionServer) count(method string) int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.counts[method]
}

func newVersionServer(t *testing.T, era string) *versionServer {
	t.Helper()
	s := server.NewMCPServer("versions", "1", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("echo", mcp.WithString("text")), func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(r.GetString("text", "")), nil
	})
	var opts []server.StreamableHTTPOption
	if era == "2026" {
		opts = append(opts, server.WithStreamableHTTPProtocolVersions(mcp.ProtocolVersion20260728))
	}
	next := server.NewStreamableHTTPServer(s, opts...)
	v := &versionServer{counts: map[string]int{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		_ = json.Unmarshal(body, &msg)
		v.mu.Lock()
		v.counts[msg.Method]++
		v.mu.Unlock()
		refuse := func(status int, reply string) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			_, _ = io.WriteString(w, reply)
		}
		switch {
		case era == "2026" && msg.Method == "initialize":
			refuse(http.StatusBadRequest, `{"jsonrpc":"2.0","id":`+string(msg.ID)+`,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"],"requested":"2025-11-25"}}}`)
			return
		case era == "2025" && msg.Method == "server/discover":
			refuse(http.StatusBadRequest, `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: Server not initialized"}}`)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	v.url = srv.URL
	return v
}

func httpCfg(url string) model.ServerConfig {
	return model.ServerConfig{Type: model.TransportHTTP, URL: url}
}

func openErr(t *testing.T, cfg model.ServerConfig, opts Options) error {
	t.Helper()
	c, err := NewFactory().Open(t.Context(), t.Name(), cfg, opts)
	if err == nil {
		_ = c.Close(context.Background())
		t.Fatalf("Open succeeded with protocol %s", c.Init().ProtocolVersion)
	}
	return err
}

func TestServerSpeakingOnly2026Connects(t *testing.T) {
	v := newVersionServer(t, "2026")
	c := open(t, httpCfg(v.url), Options{})
	if got := c.Init().ProtocolVersion; got != mcp.ProtocolVersion20260728 {
		t.Fatalf("negotiated %q", got)
	}
	if got := mustCall(t, c, "echo", map[string]any{"text": "hi"}); got != "hi" {
		t.Fatalf("echo = %q", got)
	}
	if n := v.count("initialize"); n != 0 {
		t.Fatalf("%d initialize requests, want none", n)
	}
}

func TestRememberedOlderVersionFollowsAnUpgradedServer(t *testing.T) {
	v := newVersionServer(t, "2026")
	c := open(t, httpCfg(v.url), Options{ProtocolVersion: "2025-06-18"})
	if got := c.Init().ProtocolVersion; got != mcp.ProtocolVersion20260728 {
		t.Fatalf("negotiated %q", got)
	}
	if got := mustCall(t, c, "echo", map[string]any{"text": "up"}); got != "up" {
		t.Fatalf("echo = %q", got)
	}
}

func TestOlderServerFallsBackAndRememberedVersionSkipsTheProbe(t *testing.T) {
	v := newVersionServer(t, "2025")
	c := open(t, httpCfg(v.url), Options{})
	if got := c.Init().ProtocolVersion; got != mcp.ProtocolVersion20251125 {
		t.Fatalf("negotiated %q", got)
	}
	if v.count("server/discover") != 1 || v.count("initialize") != 1 {
		t.Fatalf("first connect: %v", v.counts)
	}
	c = open(t, httpCfg(v.url), Options{ProtocolVersion: "2025-11-25"})
	if got := mustCall(t, c, "echo", map[string]any{"text": "old"}); got != "old" {
		t.Fatalf("echo = %q", got)
	}
	if v.count("server/discover") != 1 || v.count("initialize") != 2 {
		t.Fatalf("second connect probed again: %v", v.counts)
	}
}

func TestPinnedVersion(t *testing.T) {
	v := newVersionServer(t, "2026")
	cfg := httpCfg(v.url)
	cfg.ProtocolVersion = "2025-11-25"
	err := openErr(t, cfg, Options{})
	want := "the server supports protocol 2026-07-28 only; mcpdeck offered 2025-11-25 (pinned by protocolVersion in the server's definition)"
	if got := Humanize(err); got != want {
		t.Fatalf("Humanize = %q\nwant       %q", got, want)
	}
	if Classify(err) != ClassProtocol {
		t.Fatalf("class %v", Classify(err))
	}
	if n := v.count("server/discover"); n != 0 {
		t.Fatalf("a pinned older version probed with server/discover %d times", n)
	}

	cfg.ProtocolVersion = mcp.ProtocolVersion20260728
	if got := open(t, cfg, Options{}).Init().ProtocolVersion; got != mcp.ProtocolVersion20260728 {
		t.Fatalf("pinned 2026-07-28: negotiated %q", got)
	}

	old := stdioCfg()
	old.ProtocolVersion = mcp.ProtocolVersion20260728
	err = openErr(t, old, Options{})
	if got := Humanize(err); !strings.HasPrefix(got, "the server answered with protocol 2025-11-25, but protocolVersion in its definition pins 2026-07-28") {
		t.Fatalf("Humanize = %q", got)
	}
}

func TestServerSpeakingBothNegotiatesNewestOnEveryTransport(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  func() model.ServerConfig
	}{
		{"stdio", func() model.ServerConfig { return stdioCfg("-modern") }},
		{"http", func() model.ServerConfig { u, _ := startNet(t, "-http", "-modern"); return httpCfg(u) }},
		{"ws", func() model.ServerConfig {
			return model.ServerConfig{Type: model.TransportWS, URL: wsURL(t, "-modern")}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := open(t, tc.cfg(), Options{})
			if got := c.Init().ProtocolVersion; got != mcp.ProtocolVersion20260728 {
				t.Fatalf("negotiated %q", got)
			}
			if got := mustCall(t, c, "echo", map[string]any{"text": "new"}); got != "new" {
				t.Fatalf("echo = %q", got)
			}
		})
	}
}

// TestRefusedHandshakeSaysStatusAndMessage: a 4xx to the handshake is
// reported with its status and URL first ("HTTP 404 Not Found at …"), then
// the server's message, and the SSE hint only
// for a server that answers like an SSE-only one.
func TestRefusedHandshakeSaysStatusAndMessage(t *testing.T) {
	const sseHint = "older SSE transport"
	for _, tc := range []struct {
		name   string
		post   func(w http.ResponseWriter)
		get    func(w http.ResponseWriter)
		want   string
		sse    bool
		class  Class
		prefix bool
	}{
		{
			name: "403 text",
			post: func(w http.ResponseWriter) { http.Error(w, "token lacks scope mcp:read", http.StatusForbidden) },
			want: "HTTP 403 Forbidden at URL: token lacks scope mcp:read", class: ClassAuth,
		},
		{
			name: "400 json-rpc",
			post: func(w http.ResponseWriter) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusBadRequest)
				_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"missing header X-Tenant"}}`)
			},
			want: "HTTP 400 Bad Request at URL: missing header X-Tenant", class: ClassTerminal,
		},
		{
			name: "405",
			post: func(w http.ResponseWriter) { w.WriteHeader(http.StatusMethodNotAllowed) },
			want: "HTTP 405 Method Not Allowed at URL", sse: true, class: ClassTerminal, prefix: true,
		},
		{
			name: "404 and an event stream on GET",
			post: func(w http.ResponseWriter) { http.NotFound(w, nil) },
			get: func(w http.ResponseWriter) {
				w.Header().Set("Content-Type", "text/event-stream")
				_, _ = io.WriteString(w, "event: endpoint\ndata: /messages\n\n")
			},
			want: "HTTP 404 Not Found at URL: 404 page not found", sse: true, class: ClassTerminal, prefix: true,
		},
		{
			name: "404 everywhere",
			post: func(w http.ResponseWriter) { http.NotFound(w, nil) },
			want: "HTTP 404 Not Found at URL: 404 page not found", class: ClassTerminal,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				switch {
				case r.Method == http.MethodPost:
					tc.post(w)
				case tc.get != nil:
					tc.get(w)
				default:
					http.NotFound(w, r)
				}
			}))
			t.Cleanup(srv.Close)
			err := openErr(t, httpCfg(srv.URL), Options{})
			got := Humanize(err)
			tc.want = strings.Replace(tc.want, "URL", srv.URL, 1) // the status and where come first
			if tc.prefix && !strings.HasPrefix(got, tc.want) || !tc.prefix && got != tc.want {
				t.Fatalf("Humanize = %q\nwant       %q", got, tc.want)
			}
			if strings.Contains(got, sseHint) != tc.sse {
				t.Fatalf("SSE hint = %v in %q", !tc.sse, got)
			}
			if Classify(err) != tc.class {
				t.Fatalf("class %v, want %v", Classify(err), tc.class)
			}
		})
	}
}

// TestEmptyDiscoverAnswerFallsBackToInitialize: an older server that answers
// every method it does not know with an empty result is not taken for a
// 2026-07-28 server.
func TestEmptyDiscoverAnswerFallsBackToInitialize(t *testing.T) {
	v := newVersionServer(t, "2025")
	var mu sync.Mutex
	inits := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		_ = json.Unmarshal(body, &msg)
		if msg.Method == "server/discover" {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(msg.ID)+`,"result":{}}`)
			return
		}
		if msg.Method == "initialize" {
			mu.Lock()
			inits++
			mu.Unlock()
		}
		// everything else goes to an ordinary older server
		req, _ := http.NewRequestWithContext(r.Context(), r.Method, v.url, bytes.NewReader(body))
		req.Header = r.Header.Clone()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		for k, vs := range resp.Header {
			w.Header()[k] = vs
		}
		w.WriteHeader(resp.StatusCode)
		_, _ = io.Copy(w, resp.Body)
	}))
	t.Cleanup(srv.Close)
	c := open(t, httpCfg(srv.URL), Options{})
	if got := c.Init().ProtocolVersion; got != mcp.ProtocolVersion20251125 {
		t.Fatalf("negotiated %q", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if inits != 1 {
		t.Fatalf("%d initialize requests", inits)
	}
}
