package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
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

// TestReadToolsPageKeepsEveryToolAndSlimsTheRest: keep sees each tool whole
// (description, schema byte for byte, annotations), in order; mcp-go's slim
// page has every name, the schema only where it declares x-mcp-header, and
// the cursor.
func TestReadToolsPageKeepsEveryToolAndSlimsTheRest(t *testing.T) {
	raw := `{"_meta":{"x":1},"tools":[
	  {"name":"a","title":"A","description":"first","inputSchema":{"type": "object", "b":1.0},"annotations":{"readOnlyHint":true},"outputSchema":{"type":"object"}},
	  {"name":"h","description":"` + string(bytes.Repeat([]byte("d"), 3000)) + `","inputSchema":` + headerSchema + `},
	  {"name":"a","annotations":{"title":"Again","destructiveHint":true}}
	],"nextCursor":"c2"}`
	var kept []wireTool
	slim, err := readToolsPage(json.RawMessage(raw), func(w *wireTool) { kept = append(kept, *w) })
	if err != nil {
		t.Fatal(err)
	}
	if len(kept) != 3 || kept[0].Name != "a" || kept[1].Name != "h" || kept[2].Name != "a" {
		t.Fatalf("kept %+v", kept)
	}
	if string(kept[0].InputSchema) != `{"type": "object", "b":1.0}` || kept[0].Title != "A" || !isTrue(kept[0].Annotations.ReadOnlyHint) {
		t.Errorf("first tool %+v", kept[0])
	}
	if len(kept[1].Description) != 3000 || kept[2].Annotations.Title != "Again" || !isTrue(kept[2].Annotations.DestructiveHint) {
		t.Errorf("tools %+v", kept[1:])
	}
	want := `{"tools":[{"name":"a"},{"name":"h","inputSchema":` + headerSchema + `},{"name":"a"}],"nextCursor":"c2"}`
	if string(slim) != want {
		t.Fatalf("slim page\n got %s\nwant %s", slim, want)
	}
	var page mcp.ListToolsResult
	if err := json.Unmarshal(slim, &page); err != nil || len(page.Tools) != 3 || page.NextCursor != "c2" {
		t.Fatalf("mcp-go reads the slim page as %+v, %v", page, err)
	}
}

// TestReadToolsPageRefusesWhatItDoesNotKnow: a result of another shape is
// left to mcp-go, which decodes it as before and names its problem.
func TestReadToolsPageRefusesWhatItDoesNotKnow(t *testing.T) {
	for _, raw := range []string{
		``, `[]`, `{"tools":{}}`, `{"tools":["x"]}`, `{"tools":[{"name":1}]}`,
		`{"tools":[{"name":"a","inputSchema":true}]}`, `{"tools":[],"tools":[]}`,
		`{"tools":[],"nextCursor":7}`, `{"tools":[{"name":"a"}`, `{"tools":[]} x`,
	} {
		if _, err := readToolsPage(json.RawMessage(raw), func(*wireTool) {}); err == nil {
			t.Errorf("%s: read", raw)
		}
	}
	if _, err := readToolsPage(json.RawMessage(`{"tools":[{"name":"a","inputSchema":true}]}`), func(*wireTool) {}); !errors.Is(err, errToolsPage) {
		t.Errorf("error %v is not errToolsPage", err)
	}
}

// FuzzReadToolsPage: whatever the server sends, the reader does not panic,
// and what it accepts gives mcp-go a valid page naming the tools kept, in
// their order, each with an object schema or none.
func FuzzReadToolsPage(f *testing.F) {
	f.Add(`{"tools":[{"name":"a","inputSchema":{"type":"object"}}],"nextCursor":"n"}`)
	f.Add(`{"tools":[{"name":"h","inputSchema":` + headerSchema + `},{"name":"\u202e"}]}`)
	f.Add(`{"nextCursor":"","tools":[],"x":[1,{"tools":2}]}`)
	f.Fuzz(func(t *testing.T, raw string) {
		var kept []string
		slim, err := readToolsPage(json.RawMessage(raw), func(w *wireTool) {
			if s := bytes.TrimSpace(w.InputSchema); len(s) > 0 && (s[0] != '{' || !json.Valid(s)) {
				t.Fatalf("kept schema %q", s)
			}
			kept = append(kept, w.Name)
		})
		if err != nil {
			return
		}
		var page struct {
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"`
		}
		if err := json.Unmarshal(slim, &page); err != nil {
			t.Fatalf("slim page %s: %v", slim, err)
		}
		if len(page.Tools) != len(kept) {
			t.Fatalf("slim page names %d tools, kept %d", len(page.Tools), len(kept))
		}
		for i := range kept {
			if page.Tools[i].Name != kept[i] {
				t.Fatalf("tool %d: slim %q, kept %q", i, page.Tools[i].Name, kept[i])
			}
		}
	})
}

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
