package transports

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// modernServer is a loopback streamable HTTP server speaking 2026-07-28
// only, whose tool list the test changes between calls.
func modernServer(t *testing.T) (*server.MCPServer, string) {
	t.Helper()
	s := server.NewMCPServer("modern", "1", server.WithToolCapabilities(true))
	s.AddTool(mcp.NewTool("echo", mcp.WithString("text")), func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(r.GetString("text", "")), nil
	})
	srv := httptest.NewServer(server.NewStreamableHTTPServer(s,
		server.WithStreamableHTTPProtocolVersions(mcp.ProtocolVersion20260728)))
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	return s, srv.URL
}

// TestModernHTTPListChangedBetweenCalls: a 2026-07-28 session has no GET
// stream; list_changed sent while no request is in flight still arrives,
// on the subscriptions/listen stream.
func TestModernHTTPListChangedBetweenCalls(t *testing.T) {
	s, url := modernServer(t)
	rec := newRecorder()
	c := open(t, httpCfg(url), Options{OnNotification: rec.on})
	if got := c.Init().ProtocolVersion; got != mcp.ProtocolVersion20260728 {
		t.Fatalf("negotiated %q", got)
	}
	mustCall(t, c, "echo", map[string]any{"text": "before"})
	rec.waitNote(t, "notifications/subscriptions/acknowledged")
	s.AddTool(mcp.NewTool("second"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("2"), nil
	})
	rec.waitNote(t, string(mcp.MethodNotificationToolsListChanged))
	mustCall(t, c, "echo", map[string]any{"text": "after"})
}

// TestModernHTTPServerGoneClosesDoneWithoutCall: on a 2026-07-28 session a
// killed server is noticed through the failing listen stream, with no call
// made.
func TestModernHTTPServerGoneClosesDoneWithoutCall(t *testing.T) {
	url, cmd := startNet(t, "-http", "-modern")
	rec := newRecorder()
	c := open(t, httpCfg(url), Options{OnNotification: rec.on})
	if got := c.Init().ProtocolVersion; got != mcp.ProtocolVersion20260728 {
		t.Fatalf("negotiated %q", got)
	}
	rec.waitNote(t, "notifications/subscriptions/acknowledged")
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-c.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("loss not detected without a call")
	}
	if Classify(c.Err()) != ClassTerminal && Classify(c.Err()) != ClassTransient {
		t.Fatalf("Err = %v (class %v)", c.Err(), Classify(c.Err()))
	}
	t.Logf("Err = %v", c.Err())
}
