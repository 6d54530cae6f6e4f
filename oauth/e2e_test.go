package oauth

import (
	"context"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// TestMCPClientThroughManager runs a real mcp-go client over the Manager's
// HTTP client against an MCP server behind the fake authorization server:
// the first request's 401 runs the flow inline (as the CLI does), then the
// session initializes and lists tools with the token.
func TestMCPClientThroughManager(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.InlineAuth = true })
	s := server.NewMCPServer("protected", "1.0.0", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("echo", mcp.WithDescription("echo")), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("ok"), nil
	})
	e.fake.Next = server.NewStreamableHTTPServer(s, server.WithStateLess(true))
	srv := e.server()

	tr, err := transport.NewStreamableHTTP(e.fake.mcpURL(), transport.WithHTTPBasicClient(e.m.HTTPClient(srv)))
	if err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tr)
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = "2025-06-18"
	init.Params.ClientInfo = mcp.Implementation{Name: "test", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatalf("initialize: %v", e.note(err))
	}
	tools, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatalf("tools/list: %v", e.note(err))
	}
	if len(tools.Tools) != 1 || tools.Tools[0].Name != "echo" {
		t.Errorf("tools = %+v", tools.Tools)
	}
	if len(e.fake.Authorizes) != 1 {
		t.Errorf("authorizations = %d, want 1", len(e.fake.Authorizes))
	}
}
