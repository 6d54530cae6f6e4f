package engine

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
)

// TestToolNameCollisionsAreMarked: tools of two servers that meet under one
// exposed name (server "a" tool "b__c" and server "a__b" tool "c" are both
// mcp__a__b__c) each name the other; when one server goes, the mark goes.
func TestToolNameCollisionsAreMarked(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ok := func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("ok"), nil
		}
		n := newFakeNet()
		n.servers["a"] = toolServer(map[string]server.ToolHandlerFunc{"b__c": ok, "solo": ok})
		n.servers["a__b"] = toolServer(map[string]server.ToolHandlerFunc{"c": ok})
		e := newTestEngine(t, n, stdioServer("a"), stdioServer("a__b"))
		mustStart(t, e)
		a, ab := current(t, e, "a"), current(t, e, "a__b")
		tool := func(s ServerSnapshot, name string) Tool {
			for _, t := range s.Tools {
				if t.Name == name {
					return t
				}
			}
			t.Fatalf("%s has no tool %s", s.Name, name)
			return Tool{}
		}
		if got := tool(a, "b__c").Collision; !strings.Contains(got, "a__b/c") {
			t.Errorf("a/b__c collision = %q", got)
		}
		if got := tool(ab, "c").Collision; !strings.Contains(got, "a/b__c") {
			t.Errorf("a__b/c collision = %q", got)
		}
		if got := tool(a, "solo").Collision; got != "" {
			t.Errorf("a/solo collision = %q", got)
		}
		setServers(e, &config.Resolved{Servers: []model.Server{stdioServer("a")}}) // a__b removed from the config
		if err := e.Reload(context.Background()); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if got := tool(current(t, e, "a"), "b__c").Collision; got != "" {
			t.Errorf("after a__b is gone, a/b__c collision = %q", got)
		}
	})
}

func TestCollisionText(t *testing.T) {
	for _, tc := range []struct {
		owners []string
		self   string
		want   string
	}{
		{[]string{"a/x"}, "a/x", ""},
		{[]string{"a/x", "b/x"}, "a/x", "the same exposed name as b/x"},
		{[]string{"a/x", "b/x", "c/x", "d/x", "e/x"}, "a/x", "the same exposed name as b/x, c/x, d/x and 1 more"},
		{[]string{"a/x", "a/x"}, "a/x", "the same exposed name as a/x"},
	} {
		if got := collisionText(tc.owners, tc.self); got != tc.want {
			t.Errorf("collisionText(%v, %s) = %q, want %q", tc.owners, tc.self, got, tc.want)
		}
	}
}
