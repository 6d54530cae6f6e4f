package engine

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/cache"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/policy"
)

// hashedServer is stdioServer with a real definition hash (the cache
// names files by it), its definition told apart by arg.
func hashedServer(name, arg string) model.Server {
	s := stdioServer(name)
	s.Raw.Args = []string{arg}
	s.Config = s.Raw
	s.Hash = model.ConfigHash(s.Raw)
	return s
}

// rememberingEngine is newTestEngine keeping lists in dir, with the
// permission rules deny.
func rememberingEngine(t *testing.T, n *fakeNet, dir string, deny []string, servers ...model.Server) *Engine {
	t.Helper()
	e := newTestEngine(t, n)
	e.opts.CacheDir, e.opts.RememberLists = dir, true
	setServers(e, &config.Resolved{Servers: servers, Permissions: policy.Permissions{Deny: deny}})
	return e
}

// names are the names of items.
func names[T any](items []T, name func(T) string) []string {
	var out []string
	for _, x := range items {
		out = append(out, name(x))
	}
	return out
}

func toolName(t Tool) string { return t.Name }

// TestListsRememberedAcrossRuns: a server's lists, once listed, are in
// the cache; the next engine over the same definition shows them as
// Remembered (Earlier) before any connection, cleaned again (a hand-edited
// file's escapes are gone) and marked by the rules now in force (a tool
// denied since is Denied); once it connects, the live lists replace them.
// Another definition of the same name starts with nothing remembered.
func TestListsRememberedAcrossRuns(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		srv := hashedServer("demo", "v1")
		n := newFakeNet()
		n.servers["demo"] = demoServer
		first := rememberingEngine(t, n, dir, nil, srv)
		mustStart(t, first)
		if s := current(t, first, "demo"); s.State != model.StateConnected || s.Remembered == nil || s.Remembered.Earlier || len(s.Remembered.Tools) != 1 {
			t.Fatalf("live: %s %+v", s.State, s.Remembered)
		}
		_ = first.Close()
		file := filepath.Join(dir, "lists", "lists-"+srv.Hash+".json")
		if st, err := os.Stat(file); err != nil || runtime.GOOS != "windows" && st.Mode().Perm() != 0o600 {
			t.Fatalf("remembered file: %v %v", st, err)
		}
		// A file edited by hand (or by anyone who could) is cleaned as a
		// server's list is.
		b, _ := os.ReadFile(file)
		if err := os.WriteFile(file, []byte(strings.Replace(string(b), `"Adds two numbers"`, `"Adds\u001b[31m two\u202e numbers"`, 1)), 0o600); err != nil {
			t.Fatal(err)
		}
		r, ok := cache.ReadLists(dir, srv.Hash, time.Now())
		if !ok || !strings.Contains(string(r.Lists), `\u001b`) {
			t.Fatalf("edit not read back: %s", r.Lists)
		}

		n.block["demo"] = true // the server does not come this time
		second := rememberingEngine(t, n, dir, []string{"mcp__demo__add"}, srv)
		mustStart(t, second)
		s := current(t, second, "demo")
		m := s.Remembered
		if s.State == model.StateConnected || m == nil || !m.Earlier || len(m.Tools) != 1 || len(m.Prompts) != 1 || len(m.Resources) != 1 {
			t.Fatalf("remembered: %s %+v", s.State, m)
		}
		if tl := m.Tools[0]; tl.Description != "Adds two numbers" || tl.ExposedName != model.ToolName("demo", tl.Name) || !tl.Denied {
			t.Errorf("remembered tool not cleaned or marked: %+v", tl)
		}
		if len(s.Tools) != 0 {
			t.Errorf("remembered lists shown as live: %v", s.Tools)
		}
		// Rules changed again: the remembered tool follows them, as a live one does.
		setServers(second, &config.Resolved{Servers: []model.Server{srv}})
		if err := second.Reload(context.Background()); err != nil {
			t.Fatal(err)
		}
		if m := current(t, second, "demo").Remembered; m == nil || m.Tools[0].Denied {
			t.Errorf("after the rule went: %+v", m)
		}
		// The definition changed: nothing is known of the new one.
		setServers(second, &config.Resolved{Servers: []model.Server{hashedServer("demo", "v2")}})
		if err := second.Reload(context.Background()); err != nil {
			t.Fatal(err)
		}
		if m := current(t, second, "demo").Remembered; m != nil {
			t.Errorf("another definition's lists: %+v", m)
		}
		_ = second.Close()

		n.block["demo"] = false
		third := rememberingEngine(t, n, dir, nil, srv)
		mustStart(t, third)
		if s := current(t, third, "demo"); s.State != model.StateConnected || s.Remembered == nil || s.Remembered.Earlier || s.Remembered.Tools[0].Name != "add" {
			t.Fatalf("live lists did not replace the remembered: %s %+v", s.State, s.Remembered)
		}
	})
}

// TestListsListedAsCloseBeginsAreKept: a connection publishes its lists
// (what serve answers an agent from), then Close begins (the agent, done,
// stops serve), and only then does the connect goroutine write them. They
// are written: the next serve answers its first list from them. They were
// dropped, as the engine was closed, so the next start waited for the
// server instead (TestOneShotCallThroughServe/warm under load).
func TestListsListedAsCloseBeginsAreKept(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		srv := hashedServer("demo", "v1")
		n := newFakeNet()
		n.servers["demo"] = demoServer
		e := rememberingEngine(t, n, dir, nil, srv)
		mustStart(t, e)
		if s := current(t, e, "demo"); s.State != model.StateConnected {
			t.Fatalf("demo: %s", s.State)
		}
		// The server's list changes and is listed live (listedLocked, as
		// connected and refetched call it); its write has not come yet.
		e.locked(func() {
			en := e.byName["demo"]
			en.lists.tools = []Tool{{Name: "add", Description: "Adds two numbers, listed as Close began"}}
			e.memory.listedLocked(en)
		})
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
		e.memory.flush("demo") // the connect goroutine, late
		r, ok := cache.ReadLists(dir, srv.Hash, time.Now())
		if !ok || !strings.Contains(string(r.Lists), "listed as Close began") {
			t.Fatalf("the lists listed before Close are not in the cache (%v): %s", ok, r.Lists)
		}
	})
}

// TestListsNotRememberedUnlessAsked: without Options.RememberLists
// nothing is written and snapshots carry nothing remembered.
func TestListsNotRememberedUnlessAsked(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := newFakeNet()
		n.servers["demo"] = demoServer
		e := newTestEngine(t, n, hashedServer("demo", "v1"))
		mustStart(t, e)
		if s := current(t, e, "demo"); s.State != model.StateConnected || s.Remembered != nil {
			t.Fatalf("%s %+v", s.State, s.Remembered)
		}
		if _, err := os.Stat(filepath.Join(e.opts.CacheDir, "lists")); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("lists written: %v", err)
		}
	})
}

// TestCallListsOnceMoreForANewTool: a call naming a tool the list lacks
// lists once more when the server said its tools change (the tool came,
// its notification not yet handled), and finds it; a server that said
// they never change is not asked again, and a tool missing after the
// relist is "no tool". FindTool (the CLI's) does the same.
func TestCallListsOnceMoreForANewTool(t *testing.T) {
	for _, changes := range []bool{true, false} {
		synctest.Test(t, func(t *testing.T) {
			var late atomic.Bool
			var lists atomic.Int32
			n := newFakeNet()
			n.servers["s"] = func() *server.MCPServer {
				hooks := &server.Hooks{}
				hooks.AddBeforeListTools(func(context.Context, any, *mcp.ListToolsRequest) { lists.Add(1) })
				s := server.NewMCPServer("t", "1", server.WithToolCapabilities(changes), server.WithHooks(hooks),
					// late is offered only once it came, and no notification says so.
					server.WithToolFilter(func(_ context.Context, tools []mcp.Tool) []mcp.Tool {
						return slices.DeleteFunc(tools, func(t mcp.Tool) bool { return t.Name == "late" && !late.Load() })
					}))
				for _, name := range []string{"early", "late"} {
					s.AddTool(mcp.NewTool(name), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
						return mcp.NewToolResultText(name), nil
					})
				}
				return s
			}
			// Pinning off: a tool new since the first listing is withheld
			// otherwise (TestChangedDescriptionIsWithheldUntilAccepted), and
			// this is about finding it.
			srv := stdioServer("s")
			srv.Raw.Extra = map[string]json.RawMessage{"pinTools": json.RawMessage("false")}
			e := newTestEngine(t, n, srv)
			mustStart(t, e)
			if tools := names(current(t, e, "s").Tools, toolName); !slices.Equal(tools, []string{"early"}) {
				t.Fatalf("tools %v", tools)
			}
			before := lists.Load()
			if _, err := e.CallTool(context.Background(), "s", "nope", nil, nil); !errors.Is(err, ErrUnknownTool) {
				t.Fatalf("nope: %v", err)
			}
			if asked := lists.Load() - before; (changes && asked != 1) || (!changes && asked != 0) {
				t.Fatalf("listChanged %v: listed %d more times for a missing tool", changes, asked)
			}
			late.Store(true)
			res, err := e.CallTool(context.Background(), "s", "late", nil, nil)
			if !changes {
				if !errors.Is(err, ErrUnknownTool) {
					t.Fatalf("a server that declared no changes was listed again: %+v %v", res, err)
				}
				return
			}
			if err != nil || len(res.Content) != 1 || res.Content[0].Text != "late" {
				t.Fatalf("late: %+v %v", res, err)
			}
			if tools := names(current(t, e, "s").Tools, toolName); !slices.Equal(tools, []string{"early", "late"}) {
				t.Errorf("the list shown was not refreshed: %v", tools)
			}
			if def, err := e.FindTool(context.Background(), "s", "late"); err != nil || def.Name != "late" {
				t.Errorf("FindTool: %+v %v", def, err)
			}
		})
	}
}
