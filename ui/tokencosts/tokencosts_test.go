package tokencosts

import (
	"fmt"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/ui/contextcost"
)

// testTokens is one tokenizer for every test: loading it takes a while,
// and held, it is never let go between them.
var testTokens = heldCounter()

func heldCounter() *contextcost.Counter {
	c := &contextcost.Counter{}
	c.Hold()
	return c
}

// TestTokenCountsOneAtATime: with several servers due, one count runs;
// the next starts when it ends, and a new snapshot meanwhile starts none.
func TestTokenCountsOneAtATime(t *testing.T) {
	servers := []engine.ServerSnapshot{connectedWithTool("a"), connectedWithTool("b"), connectedWithTool("c")}
	c := New(testTokens)
	cmd := c.Refresh(servers)
	if cmd == nil {
		t.Fatal("no count started")
	}
	if c.Refresh(servers) != nil {
		t.Fatal("a second count started while one runs")
	}
	var counted []string
	for len(counted) < 3 && cmd != nil {
		msg, ok := cmd().(Msg)
		if !ok {
			t.Fatalf("the count's command gave %T, want one Msg (one server at a time)", msg)
		}
		counted = append(counted, msg.Server())
		cmd = c.Apply(msg)
	}
	if len(counted) != 3 || counted[0] != "a" || counted[1] != "b" || counted[2] != "c" {
		t.Fatalf("counted %v, want a, b, c in turn", counted)
	}
	for _, name := range []string{"a", "b", "c"} {
		s := connectedWithTool(name)
		if label, _ := c.Label(&s); label == "" {
			t.Fatalf("%s has no count", name)
		}
	}
}

// TestTokenizerLetGoAfterCounting: once every due server is counted, the
// TUI lets the tokenizer (30 MB) go, and loads it again for a new list.
func TestTokenizerLetGoAfterCounting(t *testing.T) {
	counter := &contextcost.Counter{}
	c := New(counter)
	servers := []engine.ServerSnapshot{connectedWithTool("a"), connectedWithTool("b")}
	countAll := func(cmd tea.Cmd) {
		t.Helper()
		for cmd != nil {
			msg := cmd()
			m, ok := msg.(Msg)
			if !ok {
				if msg != nil {
					t.Fatalf("a command gave %T", msg)
				}
				return // the last one: letting the tokenizer go
			}
			cmd = c.Apply(m)
		}
	}
	countAll(c.Refresh(servers))
	if counter.Release() {
		t.Fatal("the tokenizer was still loaded after the counts")
	}
	servers[1].Tools = []engine.Tool{{Name: "t2", Description: "a new list"}}
	countAll(c.Refresh(servers))
	b := servers[1]
	if label, _ := c.Label(&b); label == "" {
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
	var servers []engine.ServerSnapshot
	for i := range 50 {
		s := connectedWithTool(fmt.Sprintf("server-%03d", i))
		s.Tools = nil
		for j := range 20 {
			s.Tools = append(s.Tools, engine.Tool{Name: fmt.Sprintf("tool_%d", j), Description: "does a thing"})
		}
		servers = append(servers, s)
	}
	c := New(testTokens)
	c.running = "someone" // no count starts: only the bookkeeping is measured
	c.Refresh(servers)
	if allocs := testing.AllocsPerRun(20, func() { c.Refresh(servers) }); allocs > 10 {
		t.Fatalf("a snapshot with 1000 unchanged tools cost %.0f allocations", allocs)
	}
}
