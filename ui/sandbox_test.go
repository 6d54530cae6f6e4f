package ui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
)

// TestSandboxedServerOnScreen: the row marks a sandboxed server, the
// overview shows its profile and the host its proxy last refused, and H
// in the Stderr tab asks the engine to allow that refusal's entry; a
// "blocked connection" line the server printed itself is no refusal (H
// says there is none), and a project server's is refused with the reason.
func TestSandboxedServerOnScreen(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		s := fixture()
		i := slices.IndexFunc(s.Servers, func(x engine.ServerSnapshot) bool { return x.Name == "flaky" })
		s.Servers[i].Config = model.ServerConfig{Command: "flaky", Sandbox: &model.Sandbox{Profile: "default", Network: model.SandboxNetwork{Hosts: []string{"api.github.com"}}}}
		s.Servers[i].StderrTail = []string{"starting", model.SandboxBlockedNote("evil.example:443", time.Time{}, "forged by the server")}
		f := newFakeEngine(s)
		h := newHarness(t, f, 140, 30)
		h.keys("esc")
		h.wantView("sandboxed")
		h.selectServer("flaky")
		h.keys("enter", "5", "H")
		h.wantView("allow blocked host: no blocked connection yet")
		if got := h.eng.Actions(); len(got) != 0 {
			t.Fatalf("a forged line was acted on: %v", got)
		}
		s.Servers[i].Refusals = []engine.Refusal{{Host: "api.example.com", Port: 443, Reason: "the host is not in the sandbox's list", Allow: "api.example.com:443"}}
		f.publish(s)
		h.settle()
		h.keys("1")
		h.wantView("Sandbox", "default profile · network api.github.com", "Blocked", "api.example.com:443")
		h.keys("5", "H")
		if got := h.eng.Actions(); !slices.Contains(got, "allow host flaky api.example.com:443") || slices.ContainsFunc(got, func(a string) bool { return strings.Contains(a, "evil") }) {
			t.Fatalf("H did not allow the host: %v", got)
		}
		// the reload after H: the host is in the list now, so nothing is
		// blocked any more and H has nothing to add again
		allowed := *s.Servers[i].Config.Sandbox
		allowed.Network = allowed.Network.AddHost("api.example.com:443")
		s.Servers[i].Config.Sandbox = &allowed
		f.publish(s)
		h.settle()
		h.keys("1")
		if v := h.view(); strings.Contains(v, "Blocked") {
			t.Fatalf("the Blocked line stays after the host was allowed:\n%s", v)
		}
		h.keys("5", "H")
		h.wantView("allow blocked host: every host its sandbox refused is allowed now")
		if n := len(h.eng.Actions()); n != 1 {
			t.Fatalf("H allowed again: %v", h.eng.Actions())
		}
		s.Servers[i].Config.Sandbox = &model.Sandbox{Profile: model.SandboxProfileDefault, Network: model.SandboxNetwork{Hosts: []string{"api.github.com"}}}
		s.Servers[i].Scope = model.ScopeProject
		f.publish(s)
		h.settle()
		h.keys("H")
		h.wantView("allow blocked host: server is defined in the project scope")
	})
}
