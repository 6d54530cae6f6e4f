package engine

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// TestOptionalNullOmitted: `"verbose": null` for an optional boolean is
// dropped and the call is sent without it, also on the fast path for
// simple schemas; a null for the required property is still refused.
func TestOptionalNullOmitted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		var got []string
		n := newFakeNet()
		n.servers["s"] = func() *server.MCPServer {
			s := server.NewMCPServer("s", "1", server.WithToolCapabilities(false))
			s.AddTool(mcp.NewTool("log", mcp.WithString("msg", mcp.Required()), mcp.WithBoolean("verbose")),
				func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					b, _ := json.Marshal(req.Params.Arguments)
					mu.Lock()
					got = append(got, string(b))
					mu.Unlock()
					return mcp.NewToolResultText("ok"), nil
				})
			return s
		}
		e := newTestEngine(t, n, stdioServer("s"))
		mustStart(t, e)
		if s := current(t, e, "s"); len(s.Tools) != 1 {
			t.Fatalf("state %s tools %v", s.State, s.Tools)
		}
		ctx := context.Background()
		if _, err := e.CallTool(ctx, "s", "log", map[string]any{"msg": "hi", "verbose": nil}, nil); err != nil {
			t.Fatalf("optional null refused: %v", err)
		}
		_, err := e.CallTool(ctx, "s", "log", map[string]any{"msg": nil}, nil)
		if !errors.Is(err, ErrInvalidArguments) {
			t.Fatalf("required null: err %v, want ErrInvalidArguments", err)
		}
		mu.Lock()
		defer mu.Unlock()
		if len(got) != 1 || got[0] != `{"msg":"hi"}` {
			t.Fatalf("server received %v", got)
		}
	})
}
