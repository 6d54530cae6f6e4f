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
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/model"
)

// richSchemaFmt is a JSON Schema 2020-12 tool input schema with everything
// mcp-go's struct drops or rewrites: $schema, $anchor in $defs, a local and
// a network $ref, allOf/anyOf/oneOf, if/then/else, unsorted keys, a number
// spelled 1.0 and the server's own whitespace. %s is the network $ref.
const richSchemaFmt = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "properties": {
    "name": {"type": "string", "minLength": 1.0},
    "mode": {"$ref": "#/$defs/mode"},
    "limit": {"type": "integer"},
    "verbose": {"type": "boolean"},
    "profile": {"$ref": %q}
  },
  "required": ["name"],
  "$defs": {"mode": {"$anchor": "mode", "enum": ["fast", "exact"]}},
  "allOf": [{"properties": {"name": {"pattern": "^[a-z]+$"}}}],
  "anyOf": [{"required": ["name"]}],
  "oneOf": [{"required": ["name"]}],
  "if": {"properties": {"mode": {"const": "exact"}}, "required": ["mode"]},
  "then": {"required": ["limit"]},
  "else": {"properties": {"limit": {"maximum": 10}}},
  "additionalProperties": false
}`

// richServer is a streamable HTTP server whose tools/list answer carries
// the tool "shape" with richSchemaFmt verbatim; calls reach an mcp-go
// server that records the arguments it received.
type richServer struct {
	http    *httptest.Server
	canary  *httptest.Server
	fetched atomic.Int32 // requests to the network $ref
	schema  string

	mu    sync.Mutex
	calls []string // raw arguments of each call, as received
}

func newRichServer(t *testing.T) *richServer {
	t.Helper()
	r := &richServer{}
	r.canary = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		r.fetched.Add(1)
		_, _ = io.WriteString(w, `{"type":"object"}`)
	}))
	t.Cleanup(r.canary.Close)
	r.schema = fmt.Sprintf(richSchemaFmt, r.canary.URL+"/profile.json")
	srv := server.NewMCPServer("rich", "1", server.WithToolCapabilities(false))
	srv.AddTool(mcp.NewTool("shape"), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		b, _ := json.Marshal(req.Params.Arguments)
		r.mu.Lock()
		r.calls = append(r.calls, string(b))
		r.mu.Unlock()
		return mcp.NewToolResultText("ok"), nil
	})
	next := server.NewStreamableHTTPServer(srv)
	r.http = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(body))
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(body, &msg) == nil && msg.Method == string(mcp.MethodToolsList) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"shape","inputSchema":%s}]}}`, msg.ID, r.schema)
			return
		}
		next.ServeHTTP(w, req)
	}))
	t.Cleanup(r.http.Close)
	return r
}

func (r *richServer) received() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.calls...)
}

func connectRich(t *testing.T) (*Engine, *richServer, ServerSnapshot) {
	t.Helper()
	r := newRichServer(t)
	e := realEngine(t, map[string]any{"rich": map[string]any{"type": "http", "url": r.http.URL}}, nil, nil)
	if err := e.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	return e, r, await(t, e, "rich", "connected", inState(model.StateConnected))
}

// TestIntegrationToolSchemaKeptByteForByte: the engine's tool record holds
// the input schema exactly as the server sent it, and the network $ref in it
// is never fetched.
func TestIntegrationToolSchemaKeptByteForByte(t *testing.T) {
	_, r, s := connectRich(t)
	if len(s.Tools) != 1 {
		t.Fatalf("tools %v", s.Tools)
	}
	if got := string(s.Tools[0].InputSchema); got != r.schema {
		t.Fatalf("input schema changed:\n got %s\nwant %s", got, r.schema)
	}
	if n := r.fetched.Load(); n != 0 {
		t.Fatalf("the network $ref was fetched %d time(s)", n)
	}
}

// TestIntegrationToolSchemaValidatesFullSchema: arguments are validated
// against the whole schema (a value violating if/then is refused with a
// sentence and never sent; a $ref into $defs is followed), a tool with a
// network $ref can still be called, and the $ref is not fetched.
func TestIntegrationToolSchemaValidatesFullSchema(t *testing.T) {
	e, r, _ := connectRich(t)
	ctx := context.Background()
	_, err := e.CallTool(ctx, "rich", "shape", map[string]any{"name": "abc", "mode": "exact"}, nil)
	if !errors.Is(err, ErrInvalidArguments) || !strings.Contains(err.Error(), "limit") {
		t.Fatalf("if/then violation: err %v, want ErrInvalidArguments naming limit", err)
	}
	_, err = e.CallTool(ctx, "rich", "shape", map[string]any{"name": "abc", "mode": "slow"}, nil)
	if !errors.Is(err, ErrInvalidArguments) || !strings.Contains(err.Error(), "mode") {
		t.Fatalf("$defs enum violation: err %v", err)
	}
	_, err = e.CallTool(ctx, "rich", "shape", map[string]any{"name": "ABC"}, nil)
	if !errors.Is(err, ErrInvalidArguments) {
		t.Fatalf("allOf pattern violation: err %v", err)
	}
	if got := r.received(); len(got) != 0 {
		t.Fatalf("refused calls were sent: %v", got)
	}
	if _, err := e.CallTool(ctx, "rich", "shape", map[string]any{"name": "abc", "mode": "exact", "limit": 50}, nil); err != nil {
		t.Fatalf("valid call: %v", err)
	}
	if n := r.fetched.Load(); n != 0 {
		t.Fatalf("the network $ref was fetched %d time(s)", n)
	}
}

// TestIntegrationOptionalNullOmitted: a null for an optional property is
// dropped before validation and not sent; a null for a required one is
// still refused.
func TestIntegrationOptionalNullOmitted(t *testing.T) {
	e, r, _ := connectRich(t)
	ctx := context.Background()
	args := map[string]any{"name": "abc", "verbose": nil}
	if _, err := e.CallTool(ctx, "rich", "shape", args, nil); err != nil {
		t.Fatalf("call with an optional null: %v", err)
	}
	if _, ok := args["verbose"]; !ok {
		t.Fatal("the caller's arguments were changed")
	}
	if got := r.received(); len(got) != 1 || got[0] != `{"name":"abc"}` {
		t.Fatalf("server received %v, want the call without verbose", got)
	}
	_, err := e.CallTool(ctx, "rich", "shape", map[string]any{"name": nil}, nil)
	if !errors.Is(err, ErrInvalidArguments) {
		t.Fatalf("a required null: err %v, want ErrInvalidArguments", err)
	}
}
