package engine

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/model"
)

// methodCounter counts the requests an in-process server receives.
type methodCounter struct {
	mu sync.Mutex
	n  map[mcp.MCPMethod]int
}

func (c *methodCounter) hooks() *server.Hooks {
	h := &server.Hooks{}
	h.AddBeforeAny(func(_ context.Context, _ any, m mcp.MCPMethod, _ any) {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.n[m]++
	})
	return h
}

// lists returns how often each list was requested.
func (c *methodCounter) lists() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return fmt.Sprintf("tools %d, resources %d, templates %d, prompts %d",
		c.n[mcp.MethodToolsList], c.n[mcp.MethodResourcesList], c.n[mcp.MethodResourcesTemplatesList], c.n[mcp.MethodPromptsList])
}

func TestListChangedRefetchesOnlyThatList(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		count := &methodCounter{n: map[mcp.MCPMethod]int{}}
		var srv *server.MCPServer
		n := newFakeNet()
		n.servers["s"] = func() *server.MCPServer {
			srv = server.NewMCPServer("s", "1", server.WithHooks(count.hooks()), server.WithToolCapabilities(true),
				server.WithResourceCapabilities(false, true), server.WithPromptCapabilities(true))
			srv.AddTool(mcp.NewTool("t"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) { return nil, nil })
			return srv
		}
		e := newTestEngine(t, n, stdioServer("s"))
		mustStart(t, e)
		current(t, e, "s")
		if got := count.lists(); got != "tools 1, resources 1, templates 1, prompts 1" {
			t.Fatalf("after connect: %s", got)
		}
		srv.AddTool(mcp.NewTool("t2"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) { return nil, nil })
		if s := current(t, e, "s"); len(s.Tools) != 2 {
			t.Fatalf("tools %v", s.Tools)
		}
		if got := count.lists(); got != "tools 2, resources 1, templates 1, prompts 1" {
			t.Errorf("after tools/list_changed: %s", got)
		}
		srv.AddPrompt(mcp.NewPrompt("p"), func(context.Context, mcp.GetPromptRequest) (*mcp.GetPromptResult, error) { return nil, nil })
		if s := current(t, e, "s"); len(s.Prompts) != 1 {
			t.Fatalf("prompts %v", s.Prompts)
		}
		if got := count.lists(); got != "tools 2, resources 1, templates 1, prompts 2" {
			t.Errorf("after prompts/list_changed: %s", got)
		}
		srv.AddResource(mcp.NewResource("file:///r", "r"), func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return nil, nil
		})
		if s := current(t, e, "s"); len(s.Resources) != 1 {
			t.Fatalf("resources %v", s.Resources)
		}
		// Resources and their templates come from the same notification.
		if got := count.lists(); got != "tools 2, resources 2, templates 2, prompts 2" {
			t.Errorf("after resources/list_changed: %s", got)
		}
	})
}

func TestCachesDroppedOnDisableAndLoss(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := newFakeNet()
		n.servers["s"] = demoServer
		e := newTestEngine(t, n)
		cfg := model.ServerConfig{Type: model.TransportSDK, Name: "s"}
		e.opts.Extra = []model.Server{{Name: "s", Raw: cfg, Config: cfg}}
		mustStart(t, e)
		s := current(t, e, "s")
		if len(s.Tools) == 0 || len(s.Resources) == 0 || len(s.Prompts) == 0 || s.ServerInfo.Name == "" || s.ProtocolVersion == "" {
			t.Fatalf("nothing cached while connected: %+v", s)
		}
		empty := func(what string, s ServerSnapshot) {
			t.Helper()
			if len(s.Tools)+len(s.Resources)+len(s.Templates)+len(s.Prompts) != 0 || s.Instructions != "" ||
				s.ServerInfo != (Implementation{}) || s.ProtocolVersion != "" {
				t.Errorf("%s: stale caches: %d tools, %d resources, %d templates, %d prompts, info %+v",
					what, len(s.Tools), len(s.Resources), len(s.Templates), len(s.Prompts), s.ServerInfo)
			}
		}
		if err := e.Disable(context.Background(), "s"); err != nil {
			t.Fatal(err)
		}
		empty("disabled", current(t, e, "s"))
		if _, err := e.CallTool(context.Background(), "s", "add", map[string]any{"a": 1, "b": 2}, nil); err == nil {
			t.Error("call to a disabled server succeeded")
		}
		if err := e.Enable(context.Background(), "s"); err != nil {
			t.Fatal(err)
		}
		if s := current(t, e, "s"); s.State != model.StateConnected || len(s.Tools) == 0 {
			t.Fatalf("enabled: %s, %d tools", s.State, len(s.Tools))
		}
		n.set(func() { n.fail["s"] = fmt.Errorf("refused") })
		n.last("s").kill(fmt.Errorf("gone"))
		empty("lost", current(t, e, "s"))
	})
}
