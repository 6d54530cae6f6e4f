package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/model"
	modelcache "github.com/mcpdeck/mcpdeck/model/cache"
)

// olderHTTPServer is a loopback 2025-11-25 server (mcp-go's, refusing
// server/discover without a session like the TypeScript SDK's) that counts
// requests by JSON-RPC method.
func olderHTTPServer(t *testing.T) (url string, count func(method string) int) {
	t.Helper()
	next := server.NewStreamableHTTPServer(server.NewMCPServer("older", "1"))
	var mu sync.Mutex
	counts := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var msg struct {
			Method string `json:"method"`
		}
		_ = json.Unmarshal(body, &msg)
		mu.Lock()
		counts[msg.Method]++
		mu.Unlock()
		if msg.Method == string(mcp.MethodServerDiscover) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: Server not initialized"}}`)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, func(m string) int {
		mu.Lock()
		defer mu.Unlock()
		return counts[m]
	}
}

func TestNegotiatedVersionIsRememberedAndOfferedFirst(t *testing.T) {
	url, count := olderHTTPServer(t)
	cache := filepath.Join(t.TempDir(), "cache")
	servers := map[string]any{"older": map[string]any{"type": "http", "url": url}}
	connect := func() ServerSnapshot {
		e := realEngine(t, servers, nil, func(o *Options) { o.CacheDir = cache })
		if err := e.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		s := await(t, e, "older", "connected", inState(model.StateConnected))
		_ = e.Close()
		return s
	}
	s := connect()
	if s.ProtocolVersion != mcp.ProtocolVersion20251125 {
		t.Fatalf("snapshot protocol %q", s.ProtocolVersion)
	}
	if count("server/discover") != 1 || count("initialize") != 1 {
		t.Fatalf("first start: %d discover, %d initialize", count("server/discover"), count("initialize"))
	}
	m, err := modelcache.ReadProtocols(filepath.Join(cache, modelcache.ProtocolMemoryFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(m) != 1 {
		t.Fatalf("memory = %v", m)
	}
	for hash, r := range m {
		if r.Version != mcp.ProtocolVersion20251125 || len(hash) != 64 {
			t.Fatalf("memory = %v", m)
		}
	}
	if s := connect(); s.ProtocolVersion != mcp.ProtocolVersion20251125 {
		t.Fatalf("second start: protocol %q", s.ProtocolVersion)
	}
	if count("server/discover") != 1 || count("initialize") != 2 {
		t.Fatalf("second start probed again: %d discover, %d initialize", count("server/discover"), count("initialize"))
	}
}
