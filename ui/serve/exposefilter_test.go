package serve

import (
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
)

// TestServersAndToolsFilters: --servers keeps one server of two, --tools
// keeps the tools whose exposed name matches a glob.
func TestServersAndToolsFilters(t *testing.T) {
	r := newRig(t, map[string]any{"fa": fault(nil, nil), "fb": fault(nil, nil)},
		Options{Servers: []string{"fb"}, Tools: []string{"*__echo", "fb__a?d"}}, nil)
	a := r.httpAgent()
	names := a.toolNames(t)
	slices.Sort(names)
	if want := []string{"fb__add", "fb__echo"}; !slices.Equal(names, want) {
		t.Errorf("tools = %v, want %v", names, want)
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = "fa__echo"
	if res, err := a.CallTool(t.Context(), req); err == nil {
		t.Errorf("a filtered-out tool answered %+v", res)
	}
}

// TestFilterChecks: an unknown --servers name is refused naming the
// configured ones; a malformed glob is refused naming it.
func TestFilterChecks(t *testing.T) {
	if _, err := newFilter(nil, []string{"[a-"}, nil); err == nil || !strings.Contains(err.Error(), `"[a-"`) {
		t.Errorf("malformed glob: %v", err)
	}
	err := checkServers(snapOf("fa", "fb"), []string{"fa", "nope"})
	if err == nil || !strings.Contains(err.Error(), `"nope" (configured: fa, fb)`) {
		t.Errorf("unknown server: %v", err)
	}
}

// TestDenyRuleHidesATool: a permission deny rule for a tool (written the
// way the TUI's D key writes it) takes it out of tools/list, and the agent
// is told the list changed; allowing it again brings it back.
func TestDenyRuleHidesATool(t *testing.T) {
	r := newRig(t, map[string]any{"fa": fault(nil, nil)}, Options{}, nil)
	a := r.stdioAgent()
	if !slices.Contains(a.toolNames(t), "fa__echo") {
		t.Fatal("fa__echo is not offered before the deny rule")
	}
	if err := r.gw.eng.SetToolDenied(t.Context(), "fa", "echo", true); err != nil {
		t.Fatal(err)
	}
	names := a.waitTools(t, "fa__echo hidden", func(n []string) bool { return !slices.Contains(n, "fa__echo") })
	if !slices.Contains(names, "fa__add") {
		t.Errorf("after denying echo: %v", names)
	}
	if err := r.gw.eng.SetToolDenied(t.Context(), "fa", "echo", false); err != nil {
		t.Fatal(err)
	}
	a.waitTools(t, "fa__echo offered again", func(n []string) bool { return slices.Contains(n, "fa__echo") })
}

// TestOfferFollowsTheEngine: the gateway offers the servers the engine says
// may run (Runnable), as the TUI's reconnect does: a command that is not
// found now does not take a server out of the offer (the engine tries it
// again, and the person may install it meanwhile); a disabled one is out.
func TestOfferFollowsTheEngine(t *testing.T) {
	lost := engine.ServerSnapshot{Name: "lost", Runnable: true, Blockers: []model.Reason{{Kind: model.ReasonCommandNotFound, Command: "x"}}}
	off := engine.ServerSnapshot{Name: "off", Blockers: []model.Reason{{Kind: model.ReasonDisabledByYou}}}
	if f := (filter{}); !f.exposes(&lost) || f.exposes(&off) {
		t.Errorf("exposes(lost) = %v, exposes(off) = %v; want true, false", f.exposes(&lost), f.exposes(&off))
	}
}

// TestIDEToolsForAgents: of an editor's IDE server, agents are offered
// getDiagnostics and executeCode only, unless the person opts in to
// another tool by name (--ide-tools); other servers' tools of the same
// names are not affected.
func TestIDEToolsForAgents(t *testing.T) {
	tools := func(names ...string) []engine.Tool {
		var out []engine.Tool
		for _, n := range names {
			out = append(out, engine.Tool{Name: n})
		}
		return out
	}
	all := []string{"getDiagnostics", "openFile", "openDiff", "getCurrentSelection", "executeCode"}
	snap := engine.Snapshot{Servers: []engine.ServerSnapshot{
		{Name: "ide", Runnable: true, Editor: &model.Editor{Name: "Neovim", PID: 7}, Tools: tools(all...)},
		{Name: "files", Runnable: true, Tools: tools("openFile")},
	}}
	for _, tc := range []struct {
		opt  []string
		want []string
	}{
		{nil, []string{"files__openFile", "ide__executeCode", "ide__getDiagnostics"}},
		{[]string{"openFile"}, []string{"files__openFile", "ide__executeCode", "ide__getDiagnostics", "ide__openFile"}},
	} {
		f, err := newFilter(nil, nil, tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, mt := range expose(snap, f).tools {
			got = append(got, mt.Name)
		}
		slices.Sort(got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("--ide-tools %v: offered %v, want %v", tc.opt, got, tc.want)
		}
	}
}
