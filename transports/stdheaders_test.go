package transports

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// seenPost is one JSON-RPC message POSTed to a headerServer.
type seenPost struct {
	method     string // of the body
	header     http.Header
	metaProto  string // _meta io.modelcontextprotocol/protocolVersion
	clientInfo bool   // _meta io.modelcontextprotocol/clientInfo present
}

// headerServer is a loopback mcp-go streamable HTTP server (2026-07-28 and
// older, or older only: "2025") that records every message POSTed to it.
// refuseFirst makes it refuse the first request the way a server does that
// wants the client to retry at a version it names (HTTP 400, -32022,
// supported ["2026-07-28"]).
type headerServer struct {
	url  string
	mu   sync.Mutex
	seen []seenPost
}

func (h *headerServer) posts() []seenPost {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]seenPost(nil), h.seen...)
}

func (h *headerServer) count(method string) int {
	n := 0
	for _, p := range h.posts() {
		if p.method == method {
			n++
		}
	}
	return n
}

func newHeaderServer(t *testing.T, era string, refuseFirst bool) *headerServer {
	t.Helper()
	s := server.NewMCPServer("headers", "1", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("echo", mcp.WithString("text")), func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(r.GetString("text", "")), nil
	})
	next := server.NewStreamableHTTPServer(s)
	h := &headerServer{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Meta map[string]json.RawMessage `json:"_meta"`
			} `json:"params"`
		}
		_ = json.Unmarshal(body, &msg)
		p := seenPost{method: msg.Method, header: r.Header.Clone()}
		_ = json.Unmarshal(msg.Params.Meta["io.modelcontextprotocol/protocolVersion"], &p.metaProto)
		_, p.clientInfo = msg.Params.Meta["io.modelcontextprotocol/clientInfo"]
		h.mu.Lock()
		first := len(h.seen) == 0
		h.seen = append(h.seen, p)
		h.mu.Unlock()
		reply := func(status int, s string) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			_, _ = io.WriteString(w, s)
		}
		switch {
		case refuseFirst && first:
			reply(http.StatusBadRequest, `{"jsonrpc":"2.0","id":`+string(msg.ID)+`,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"],"requested":"2026-07-28"}}}`)
			return
		case era == "2025" && msg.Method == "server/discover":
			reply(http.StatusOK, `{"jsonrpc":"2.0","id":`+string(msg.ID)+`,"error":{"code":-32601,"message":"Method not found"}}`)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	h.url = srv.URL
	return h
}

// TestEveryPostNamesItsMessage: Mcp-Method (and Mcp-Name for a tool call)
// on every message, the first included: the discovery probe, and on an
// older server the initialize handshake and notifications/initialized,
// which mcp-go sends without them.
func TestEveryPostNamesItsMessage(t *testing.T) {
	for _, tc := range []struct {
		era   string
		proto string
		want  []string // methods that must have been sent
	}{
		{"2025", mcp.ProtocolVersion20251125, []string{"server/discover", "initialize", "notifications/initialized", "tools/call"}},
		{"2026", mcp.ProtocolVersion20260728, []string{"server/discover", "tools/call"}},
	} {
		t.Run(tc.era, func(t *testing.T) {
			h := newHeaderServer(t, tc.era, false)
			c := open(t, httpCfg(h.url), Options{})
			if got := c.Init().ProtocolVersion; got != tc.proto {
				t.Fatalf("negotiated %q, want %q", got, tc.proto)
			}
			if got := mustCall(t, c, "echo", map[string]any{"text": "hi"}); got != "hi" {
				t.Fatalf("echo = %q", got)
			}
			for _, m := range tc.want {
				if h.count(m) == 0 {
					t.Fatalf("no %s was sent: %v", m, h.posts())
				}
			}
			for i, p := range h.posts() {
				if p.method == "" {
					continue // an answer to a server request
				}
				if got := p.header.Get("Mcp-Method"); got != p.method {
					t.Errorf("POST %d (%s): Mcp-Method %q", i, p.method, got)
				}
				if p.method == "tools/call" && p.header.Get("Mcp-Name") != "echo" {
					t.Errorf("tools/call: Mcp-Name %q, want echo", p.header.Get("Mcp-Name"))
				}
			}
		})
	}
}

// TestDiscoveryRefusedForTheOfferedVersionIsAskedAgain: a server that
// refuses the first request as an unsupported version while naming the
// offered 2026-07-28 as supported gets the probe once more at that version,
// rather than a fallback to the older initialize handshake; every request,
// the first included, carries the version in its header and _meta, and the
// client's identity.
func TestDiscoveryRefusedForTheOfferedVersionIsAskedAgain(t *testing.T) {
	h := newHeaderServer(t, "2026", true)
	c := open(t, httpCfg(h.url), Options{ClientName: "mcpdeck", ClientVersion: "test"})
	if got := c.Init().ProtocolVersion; got != mcp.ProtocolVersion20260728 {
		t.Fatalf("negotiated %q", got)
	}
	if got := mustCall(t, c, "echo", map[string]any{"text": "again"}); got != "again" {
		t.Fatalf("echo = %q", got)
	}
	if n, m := h.count("server/discover"), h.count("initialize"); n != 2 || m != 0 {
		t.Fatalf("%d server/discover and %d initialize requests, want 2 and 0", n, m)
	}
	for i, p := range h.posts() {
		if p.method == "" || p.method == "notifications/cancelled" {
			continue
		}
		hv := p.header.Get("Mcp-Protocol-Version")
		if hv != mcp.ProtocolVersion20260728 || p.metaProto != hv || !p.clientInfo {
			t.Errorf("POST %d (%s): header version %q, _meta version %q, clientInfo %v", i, p.method, hv, p.metaProto, p.clientInfo)
		}
	}
}
