package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/transports"
)

// pagedTools is an in-process server listing n tools with 200-byte
// descriptions, 10 to a page: every page is small, all together are not.
func pagedTools(n int) func() *server.MCPServer {
	return func() *server.MCPServer {
		s := server.NewMCPServer("paged", "1", server.WithToolCapabilities(true), server.WithPaginationLimit(10))
		s.AddTools(manyTools(0, n)...)
		return s
	}
}

func manyTools(from, n int) []server.ServerTool {
	tools := make([]server.ServerTool, n)
	for i := range tools {
		tools[i] = server.ServerTool{
			Tool: mcp.NewTool(fmt.Sprintf("tool_%05d", from+i), mcp.WithDescription(strings.Repeat("d", 200))),
			Handler: func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return mcp.NewToolResultText("ok"), nil
			},
		}
	}
	return tools
}

// expectFailedForGood checks that s failed naming the limit, and that it was
// never shown connected with a partial list, nor retried.
func expectFailedForGood(t *testing.T, e *Engine, n *fakeNet, name, what string) {
	t.Helper()
	time.Sleep(time.Hour) // fake time: any retry would have run by now
	s := current(t, e, name)
	if s.State != model.StateFailed || !strings.Contains(s.Error, what+" larger than 8 KB") || s.ErrorClass != "too-large" {
		t.Fatalf("state %s, error %q (%s)", s.State, s.Error, s.ErrorClass)
	}
	if !strings.Contains(reasonsText(s), "larger than 8 KB") {
		t.Errorf("why %v does not name the limit", reasonsText(s))
	}
	if len(s.Tools) != 0 || s.Attempt != 0 || !s.NextRetry.IsZero() {
		t.Errorf("%d tools, attempt %d, next retry %v", len(s.Tools), s.Attempt, s.NextRetry)
	}
	if got := n.opened(name); got != 1 {
		t.Errorf("opened %d times: a server over the limit is not retried", got)
	}
}

// TestListOverTheLimitInTotalFailsTheServer: pages that each pass but
// together keep more than the limit fail the server, which never shows
// "connected" with part of its list.
func TestListOverTheLimitInTotalFailsTheServer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := newFakeNet()
		n.servers["s"] = pagedTools(200) // ~45 KB kept
		n.servers["fine"] = pagedTools(20)
		e := newTestEngine(t, n, stdioServer("s"), stdioServer("fine"))
		e.opts.MaxMessageSize = 8 << 10
		mustStart(t, e)
		expectFailedForGood(t, e, n, "s", "a tools list")
		for _, h := range current(t, e, "s").History {
			if h.To == model.StateConnected {
				t.Errorf("shown connected on the way: %+v", h)
			}
		}
		if f := current(t, e, "fine"); f.State != model.StateConnected || len(f.Tools) != 20 {
			t.Fatalf("fine: %s, %d tools, %q", f.State, len(f.Tools), f.Error)
		}
	})
}

// TestOversizedMessageLossFailsWithoutRetry: a connection the transport
// ended for an oversized message leaves the server failed, not
// reconnecting (the server would send the same again).
func TestOversizedMessageLossFailsWithoutRetry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := newFakeNet()
		n.servers["s"] = demoServer
		e := newTestEngine(t, n, stdioServer("s"))
		e.opts.MaxMessageSize = 8 << 10
		mustStart(t, e)
		time.Sleep(time.Minute) // not a crash loop
		n.last("s").kill(&transports.MessageTooLargeError{Server: "s", Limit: 8 << 10})
		expectFailedForGood(t, e, n, "s", "a message")
	})
}

// TestListGrownOverTheLimitFailsTheServer: a list_changed refetch that
// goes over the limit fails the server too.
func TestListGrownOverTheLimitFailsTheServer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := newFakeNet()
		var srv *server.MCPServer
		n.servers["s"] = func() *server.MCPServer { srv = pagedTools(5)(); return srv }
		e := newTestEngine(t, n, stdioServer("s"))
		e.opts.MaxMessageSize = 8 << 10
		mustStart(t, e)
		if s := current(t, e, "s"); s.State != model.StateConnected || len(s.Tools) != 5 {
			t.Fatalf("%s, %d tools", s.State, len(s.Tools))
		}
		srv.AddTools(manyTools(5, 200)...) // sends tools/list_changed
		expectFailedForGood(t, e, n, "s", "a tools list")
	})
}

// TestIntegrationOversizedListsFail runs real transports: a stdio server
// whose tools/list page is over the limit, one whose pages are small but
// many, and streamable HTTP, SSE and WebSocket servers whose page is over the
// limit all end failed with a sentence naming it, never "connected" with
// no tools.
func TestIntegrationOversizedListsFail(t *testing.T) {
	bin := needFaultServer(t)
	stdio := func(args ...string) map[string]any { return map[string]any{"command": bin, "args": args} }
	big := []string{"-tools", "200", "-desc-kb", "1"} // pages of 100 tools, ~150 KB each
	e := realEngine(t, map[string]any{
		"bigpage":   stdio(big...),
		"manypages": stdio("-tools", "2000", "-desc-kb", "0"), // pages of ~10 KB, ~150 KB kept
		"http":      map[string]any{"type": "http", "url": httpFaultServer(t, big...)},
		"sse":       map[string]any{"type": "sse", "url": netFaultServer(t, "-sse", big...)},
		"ws":        map[string]any{"type": "ws", "url": "ws" + strings.TrimPrefix(netFaultServer(t, "-ws", big...), "http")},
		"fine":      stdio("-tools", "20", "-desc-kb", "0"),
	}, nil, func(o *Options) { o.MaxMessageSize = 64 << 10 })
	if err := e.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	for name, what := range map[string]string{
		"bigpage": "a message", "manypages": "a tools list", "http": "a message", "sse": "a message", "ws": "a message",
	} {
		s := await(t, e, name, "failed", inState(model.StateFailed))
		want := "server " + name + " sent " + what + " larger than 64 KB; mcpdeck closed the connection"
		if s.Error != want || s.ErrorClass != "too-large" {
			t.Errorf("%s: error %q (%s), want %q", name, s.Error, s.ErrorClass, want)
		}
		for _, h := range s.History {
			if h.To == model.StateConnected {
				t.Errorf("%s: shown connected on the way: %+v", name, h)
			}
		}
	}
	if f := await(t, e, "fine", "connected", inState(model.StateConnected)); len(f.Tools) < 20 {
		t.Errorf("fine: %d tools", len(f.Tools))
	}
}
