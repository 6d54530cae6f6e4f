package transports

import (
	"context"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/model"
)

func benchCall(b *testing.B, c *client.Client) {
	b.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = "echo"
	req.Params.Arguments = map[string]any{"text": "hi"}
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := c.CallTool(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

func echoServer() *server.MCPServer {
	s := server.NewMCPServer("bench", "1", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("echo", mcp.WithString("text")), func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(r.GetString("text", "")), nil
	})
	return s
}

// benchCallRecorded runs benchCall on a connection to cfg without and
// with its traffic recorded (Options.OnFrame: two frames a call, the
// request and its response, built and masked by the tap).
func benchCallRecorded(b *testing.B, cfg model.ServerConfig, opts Options) {
	for _, rec := range []struct {
		name    string
		onFrame func(Frame)
	}{{"unrecorded", nil}, {"recorded", func(Frame) {}}} {
		b.Run(rec.name, func(b *testing.B) {
			opts.OnFrame = rec.onFrame
			c, err := NewFactory().Open(b.Context(), "bench", cfg, opts)
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close(context.Background())
			benchCall(b, c.Client())
		})
	}
}

// BenchmarkSDKCallTool is a tool call through Conn's in-process client.
func BenchmarkSDKCallTool(b *testing.B) {
	benchCallRecorded(b, model.ServerConfig{Type: model.TransportSDK, Name: "echo"},
		Options{Builtins: map[string]func() *server.MCPServer{"echo": echoServer}})
}

// BenchmarkMCPGoInProcessCallTool is the same call on a bare mcp-go client,
// the baseline for BenchmarkSDKCallTool.
func BenchmarkMCPGoInProcessCallTool(b *testing.B) {
	c, err := client.NewInProcessClient(echoServer())
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	if err := c.Start(b.Context()); err != nil {
		b.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = DefaultProtocolVersion
	if _, err := c.Initialize(b.Context(), init); err != nil {
		b.Fatal(err)
	}
	benchCall(b, c)
}

// BenchmarkStdioCallTool is a tool call round trip over our stdio transport
// to the faultserver.
func BenchmarkStdioCallTool(b *testing.B) {
	benchCallRecorded(b, stdioCfg(), Options{})
}

// BenchmarkStdioOpenClose connects to and shuts down a stdio server (the
// child's own start is included).
func BenchmarkStdioOpenClose(b *testing.B) {
	for b.Loop() {
		c, err := NewFactory().Open(b.Context(), "bench", stdioCfg(), Options{})
		if err != nil {
			b.Fatal(err)
		}
		if err := c.Close(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}
