package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/ui/contextcost"
)

// TestTokenCountsWaitForConnects: while a server is connecting, no count
// starts (the counts would compete with its start); once none is, the
// rows get their counts. A server waiting for a retry does not hold the
// counts back.
func TestTokenCountsWaitForConnects(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		s := fixture()
		connecting := engine.ServerSnapshot{
			Name: "starting", Scope: model.ScopeUser, Transport: model.TransportStdio, Target: "slow-server",
			State: model.StatePending, Enabled: true, Runnable: true, Policy: model.PolicyDecision{Allowed: true},
		}
		s.Servers = append(s.Servers, connecting)
		f := newFakeEngine(s)
		h := newHarness(t, f, 140, 30)
		h.keys("esc")
		if v := h.view(); strings.Contains(v, "tokens") {
			t.Fatalf("a count ran while a server was connecting:\n%s", v)
		}
		s.Servers[len(s.Servers)-1].State = model.StateFailed
		f.publish(s)
		h.settle()
		h.wantView("3 tools · 1 resource · 1 template · 1 prompt · ~166 tokens")
	})
}

// TestTokenCountsOneAtATime: with several servers due, one count runs;
// the next starts when it ends, and a new snapshot meanwhile starts none.
func TestTokenCountsOneAtATime(t *testing.T) {
	servers := []engine.ServerSnapshot{connectedWithTool("a"), connectedWithTool("b"), connectedWithTool("c")}
	c := newTokenCosts(testTokens)
	cmd := c.refresh(servers)
	if cmd == nil {
		t.Fatal("no count started")
	}
	if c.refresh(servers) != nil {
		t.Fatal("a second count started while one runs")
	}
	var counted []string
	for len(counted) < 3 && cmd != nil {
		msg, ok := cmd().(costMsg)
		if !ok {
			t.Fatalf("the count's command gave %T, want one costMsg (one server at a time)", msg)
		}
		counted = append(counted, msg.server)
		cmd = c.apply(msg)
	}
	if len(counted) != 3 || counted[0] != "a" || counted[1] != "b" || counted[2] != "c" {
		t.Fatalf("counted %v, want a, b, c in turn", counted)
	}
	for _, name := range []string{"a", "b", "c"} {
		s := connectedWithTool(name)
		if label, _ := c.label(&s); label == "" {
			t.Fatalf("%s has no count", name)
		}
	}
}

// TestTokenizerLetGoAfterCounting: once every due server is counted, the
// TUI lets the tokenizer (30 MB) go, and loads it again for a new list.
func TestTokenizerLetGoAfterCounting(t *testing.T) {
	counter := &contextcost.Counter{}
	c := newTokenCosts(counter)
	servers := []engine.ServerSnapshot{connectedWithTool("a"), connectedWithTool("b")}
	countAll := func(cmd tea.Cmd) {
		t.Helper()
		for cmd != nil {
			msg := cmd()
			m, ok := msg.(costMsg)
			if !ok {
				if msg != nil {
					t.Fatalf("a command gave %T", msg)
				}
				return // the last one: letting the tokenizer go
			}
			cmd = c.apply(m)
		}
	}
	countAll(c.refresh(servers))
	if counter.Release() {
		t.Fatal("the tokenizer was still loaded after the counts")
	}
	servers[1].Tools = []engine.Tool{{Name: "t2", Description: "a new list"}}
	countAll(c.refresh(servers))
	b := servers[1]
	if label, _ := c.label(&b); label == "" {
		t.Fatal("the new list was not counted")
	}
	if counter.Release() {
		t.Fatal("the tokenizer was still loaded after the second counts")
	}
}

func connectedWithTool(name string) engine.ServerSnapshot {
	return engine.ServerSnapshot{
		Name: name, State: model.StateConnected, Enabled: true, Runnable: true, Policy: model.PolicyDecision{Allowed: true},
		Tools: []engine.Tool{{Name: "t", Description: "does " + name}},
	}
}

// TestUnchangedToolsAreNotHashedAgain: a snapshot whose tool lists are
// the same slices as before (a health ping's traffic publishes one per
// server every 30 s) costs the token meter no hashing: a handful of
// allocations, not one per tool.
func TestUnchangedToolsAreNotHashedAgain(t *testing.T) {
	s := bigSnapshot(50, 1000)
	for i := range s.Servers {
		s.Servers[i].State = model.StateConnected
	}
	c := newTokenCosts(testTokens)
	c.running = "someone" // no count starts: only the bookkeeping is measured
	c.refresh(s.Servers)
	if allocs := testing.AllocsPerRun(20, func() { c.refresh(s.Servers) }); allocs > 10 {
		t.Fatalf("a snapshot with 1000 unchanged tools cost %.0f allocations", allocs)
	}
}
