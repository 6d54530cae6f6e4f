package engcmd

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// schema2020 is a JSON Schema 2020-12 input schema with what a decoded and
// re-encoded schema loses: $schema, $defs with $anchor, $ref, allOf,
// if/then/else, unsorted keys and a number spelled 1.0.
const schema2020 = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "properties": {"name": {"type": "string", "minLength": 1.0}, "mode": {"$ref": "#/$defs/mode"}},
  "$defs": {"mode": {"$anchor": "mode", "enum": ["fast", "exact"]}},
  "allOf": [{"required": ["name"]}],
  "if": {"required": ["mode"]}, "then": {"required": ["name"]}, "else": {},
  "additionalProperties": false
}`

// TestEngToolsJSONShowsSchemaAsSent: `tools --json` shows a tool's input
// schema as the server published it (only the indentation is mcpdeck's).
func TestEngToolsJSONShowsSchemaAsSent(t *testing.T) {
	srv := server.NewMCPServer("rich", "1", server.WithToolCapabilities(false))
	srv.AddTool(mcp.NewTool("shape"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("ok"), nil
	})
	next := server.NewStreamableHTTPServer(srv)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(body, &msg) == nil && msg.Method == string(mcp.MethodToolsList) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"shape","inputSchema":%s}]}}`, msg.ID, schema2020)
			return
		}
		next.ServeHTTP(w, r)
	}))
	defer hs.Close()

	e := clitest.NewEnv(t)
	cfg := fmt.Sprintf(`{"mcpServers":{"rich":{"type":"http","url":%q}}}`, hs.URL)
	r := e.OK("--mcp-config", cfg, "--json", "tools", "rich")
	var doc []struct {
		Items []struct {
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"items"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &doc); err != nil || len(doc) != 1 || len(doc[0].Items) != 1 {
		t.Fatalf("tools --json: %v\n%s", err, r)
	}
	var got, want bytes.Buffer
	if err := json.Compact(&got, doc[0].Items[0].InputSchema); err != nil {
		t.Fatal(err)
	}
	if err := json.Compact(&want, []byte(schema2020)); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Fatalf("tools --json changed the schema:\n got %s\nwant %s", got.String(), want.String())
	}
}
