package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/model"
)

const headerSchema = `{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}`

// headerServer is a 2026-07-28 streamable HTTP server with a tool whose
// "region" argument is mirrored into a header, and one whose x-mcp-header
// declaration is invalid; it records the Mcp-Param-Region header of calls.
type headerServer struct {
	http *httptest.Server
	mu   sync.Mutex
	seen []string
}

func newHeaderServer(t *testing.T) *headerServer {
	t.Helper()
	h := &headerServer{}
	s := server.NewMCPServer("headers", "1", server.WithToolCapabilities(false))
	ok := func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("ok"), nil
	}
	s.AddTool(mcp.NewToolWithRawSchema("routed", "Routed by region", json.RawMessage(headerSchema)), ok)
	s.AddTool(mcp.NewTool("plain", mcp.WithDescription("No headers"), mcp.WithString("region")), ok)
	next := server.NewStreamableHTTPServer(s, server.WithStreamableHTTPProtocolVersions(mcp.ProtocolVersion20260728))
	h.http = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		_ = json.Unmarshal(body, &m)
		switch m.Method {
		case string(mcp.MethodToolsList): // the invalid declaration, which the server package would refuse to add
			w.Header().Set("Content-Type", "application/json")
			_, _ = fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"tools":[
				{"name":"routed","description":"Routed by region","inputSchema":%s},
				{"name":"bad","inputSchema":{"type":"object","properties":{"o":{"type":"object","x-mcp-header":"O"}}}},
				{"name":"plain","description":"No headers","inputSchema":{"type":"object","properties":{"region":{"type":"string"}}}}]}}`, m.ID, headerSchema)
			return
		case string(mcp.MethodToolsCall):
			h.mu.Lock()
			h.seen = append(h.seen, r.Header.Get(mcp.HeaderParamPrefix+"Region"))
			h.mu.Unlock()
		}
		next.ServeHTTP(w, r)
	}))
	t.Cleanup(h.http.Close)
	return h
}

// TestHeaderMirroringSurvivesTheSlimPage: mcp-go decodes only the slim
// page, yet on 2026-07-28 over HTTP it still mirrors a declared argument
// into its Mcp-Param header and drops the tool whose declaration is
// invalid, while the engine keeps the others whole.
func TestHeaderMirroringSurvivesTheSlimPage(t *testing.T) {
	h := newHeaderServer(t)
	e := realEngine(t, map[string]any{"s": map[string]any{"type": "http", "url": h.http.URL}}, nil, nil)
	if err := e.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	s := await(t, e, "s", "connected", inState(model.StateConnected))
	if s.ProtocolVersion != mcp.ProtocolVersion20260728 {
		t.Fatalf("protocol %q", s.ProtocolVersion)
	}
	var names []string
	for _, tl := range s.Tools {
		names = append(names, tl.Name)
	}
	if fmt.Sprint(names) != "[routed plain]" {
		t.Fatalf("tools %v, want routed and plain (bad declares a header on an object)", names)
	}
	if s.Tools[0].Description != "Routed by region" || string(s.Tools[0].InputSchema) != headerSchema {
		t.Fatalf("routed kept as %+v", s.Tools[0])
	}
	for _, tool := range []string{"routed", "plain"} {
		if _, err := e.CallTool(t.Context(), "s", tool, map[string]any{"region": "eu"}, nil); err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if fmt.Sprint(h.seen) != "[eu ]" {
		t.Fatalf("Mcp-Param-Region of the calls: %q, want eu for routed only", h.seen)
	}
}
