package ui

import (
	"slices"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
)

// TestSandboxedServerOnScreen: the row marks a sandboxed server, the
// overview shows its profile and the host its proxy last refused, and H
// in the Stderr tab asks the engine to allow that host; a project
// server's is refused with the reason.
func TestSandboxedServerOnScreen(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		s := fixture()
		i := slices.IndexFunc(s.Servers, func(x engine.ServerSnapshot) bool { return x.Name == "flaky" })
		s.Servers[i].Config = model.ServerConfig{Command: "flaky", Sandbox: &model.Sandbox{Profile: "default", Network: model.SandboxNetwork{Hosts: []string{"api.github.com"}}}}
		s.Servers[i].StderrTail = []string{"starting", model.SandboxBlockedNote("api.example.com:443", time.Time{}, "the host is not in the sandbox's list")}
		f := newFakeEngine(s)
		h := newHarness(t, f, 140, 30)
		h.keys("esc")
		h.wantView("sandboxed")
		h.selectServer("flaky")
		h.keys("enter")
		h.wantView("Sandbox", "default profile · network api.github.com", "Blocked", "api.example.com")
		h.keys("5", "H")
		if got := h.eng.Actions(); !slices.Contains(got, "allow host flaky api.example.com") {
			t.Fatalf("H did not allow the host: %v", got)
		}
		s.Servers[i].Scope = model.ScopeProject
		f.publish(s)
		h.settle()
		h.keys("H")
		h.wantView("allow blocked host: server is defined in the project scope")
	})
}
