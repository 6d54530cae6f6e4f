package serve

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/model"
)

// TestCallOfAToolNoLongerOffered: an agent that calls a tool it was offered
// before its server was disabled is told the server's state and what to
// run, on either protocol, not "tool not found"; a name of no configured
// server, or a tool a connected server does not have, still gets the
// library's "not found".
func TestCallOfAToolNoLongerOffered(t *testing.T) {
	for _, kind := range []string{"stdio, 2025-11-25", "http, 2026-07-28"} {
		t.Run(kind, func(t *testing.T) {
			r := newRig(t, map[string]any{"fa": fault(nil, nil), "fb": fault(nil, nil)}, Options{}, nil)
			a := r.stdioAgent()
			if kind != "stdio, 2025-11-25" {
				a = r.modernAgent()
			}
			if names := a.toolNames(t); !slices.Contains(names, "fb__echo") {
				t.Fatalf("fb's tools are not offered: %v", names)
			}
			if err := r.gw.eng.Disable(t.Context(), "fb"); err != nil {
				t.Fatal(err)
			}
			r.waitFor("fb not offered", func(g *Gateway) bool { _, ok := g.x.toolRoutes["fb__echo"]; return !ok })
			checkNotOffered(t, a)
		})
	}
}

// checkNotOffered calls a tool of the disabled fb, one of no server and
// one connected fa does not have.
func checkNotOffered(t *testing.T, a *agent) {
	t.Helper()
	got := callText(t, a, "fb__echo")
	if want := `mcpdeck serve offers no tool "fb__echo" now: server fb is disabled`; !strings.Contains(got, want) {
		t.Errorf("calling fb__echo: %q, want %q", got, want)
	}
	for _, name := range []string{"nope__echo", "fa__nope"} {
		if got := callText(t, a, name); !strings.Contains(got, "not found") || strings.Contains(got, "offers no tool") {
			t.Errorf("calling %s: %q, want the library's not found", name, got)
		}
	}
}

// TestCallOfAToolDeniedWhileSettingsAreBroken: while the person's
// settings file cannot be parsed every tool is denied (its deny rules are
// unknown), so serve offers none; a call of one says which rule stops
// it, naming the file, not "tool not found".
func TestCallOfAToolDeniedWhileSettingsAreBroken(t *testing.T) {
	r := newRig(t, map[string]any{"fa": fault(nil, nil)}, Options{}, nil)
	a := r.stdioAgent()
	if names := a.toolNames(t); !slices.Contains(names, "fa__echo") {
		t.Fatalf("fa's tools are not offered: %v", names)
	}
	settings := filepath.Join(r.load.ConfigDir, "settings.json")
	if err := os.WriteFile(settings, []byte(`{"mcpServers": {"`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := r.gw.eng.Reload(t.Context()); err != nil {
		t.Fatal(err)
	}
	r.waitFor("fa's tools denied", func(g *Gateway) bool { _, ok := g.x.toolRoutes["fa__echo"]; return !ok })
	got := callText(t, a, "fa__echo")
	want := `mcpdeck serve offers no tool "fa__echo" now: server fa's tool echo is denied by a permission rule (deny: every tool while ` + settings + ` cannot be read)`
	if !strings.Contains(got, want) {
		t.Errorf("calling fa__echo: %q, want %q", got, want)
	}
}

// TestCallOfAToolOfAServerThatLeft: a server removed from the person's
// settings while serve runs is named as gone, not "tool not found"; one
// that comes back is offered again.
func TestCallOfAToolOfAServerThatLeft(t *testing.T) {
	r := newRig(t, map[string]any{"fa": fault(nil, nil)}, Options{}, nil)
	settings := filepath.Join(r.load.ConfigDir, "settings.json")
	write := func(servers map[string]any) {
		t.Helper()
		b, _ := json.Marshal(map[string]any{"mcpServers": servers})
		if err := os.WriteFile(settings, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := r.gw.eng.Reload(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	write(map[string]any{"fc": fault(nil, nil)})
	r.waitFor("fc offered", func(g *Gateway) bool { _, ok := g.x.toolRoutes["fc__echo"]; return ok })
	a := r.stdioAgent()
	write(map[string]any{})
	r.waitFor("fc gone", func(g *Gateway) bool { _, ok := g.x.toolRoutes["fc__echo"]; return !ok })
	if got, want := callText(t, a, "fc__echo"), `mcpdeck serve offers no tool "fc__echo" now: server fc is no longer in the configuration`; !strings.Contains(got, want) {
		t.Errorf("calling fc__echo: %q, want %q", got, want)
	}
	write(map[string]any{"fc": fault(nil, nil)})
	r.waitFor("fc back", func(g *Gateway) bool { _, ok := g.x.toolRoutes["fc__echo"]; return ok })
	r.gw.mu.Lock()
	_, still := r.gw.gone.why["fc"]
	r.gw.mu.Unlock()
	if still {
		t.Error("fc is back but still remembered as gone")
	}
}

// callText calls name and returns the error's text or the error result's
// (while mcp-go still holds the list serve just replaced, the handler
// answers: either says the same); a call that goes through fails the test.
func callText(t *testing.T, a *agent, name string) string {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = name, map[string]any{"text": "x"}
	res, err := a.CallTool(t.Context(), req)
	switch {
	case err != nil:
		return err.Error()
	case res.IsError:
		return resultText(res)
	}
	t.Fatalf("calling %s went through: %v", name, res)
	return ""
}

// TestCallBeforeListingWaitsForTheServer: an agent that calls a tool
// without listing first (inspector-cli does), while its server still
// connects, waits for it as a listing does and gets the result.
func TestCallBeforeListingWaitsForTheServer(t *testing.T) {
	r := newRig(t, map[string]any{"slow": fault([]string{"-start-delay", "500ms"}, nil)}, Options{}, nil)
	a := r.stdioAgent()
	if got, isErr := a.call(t, "slow__echo", map[string]any{"text": "hi"}); isErr || got != "hi" {
		t.Errorf("calling slow__echo at start: %q (error %v), want hi", got, isErr)
	}
}

// TestCallOfAToolOfAServerStillConnecting: a server that is offered but
// has no lists yet (it connects: at start, or again after its definition
// changed, when its old lists went with the old definition) answers a
// call of one of its tools with its state, not "tool not found".
func TestCallOfAToolOfAServerStillConnecting(t *testing.T) {
	r := newRig(t, map[string]any{"fa": fault(nil, nil), "fh": fault([]string{"-hang-init"}, nil)}, Options{StartupWait: time.Millisecond}, nil)
	a := r.stdioAgent()
	got := callText(t, a, "fh__echo")
	if want := `mcpdeck serve offers no tool "fh__echo" now: server fh is not connected`; !strings.Contains(got, want) {
		t.Errorf("calling fh__echo: %q, want %q", got, want)
	}
}

// TestCallOfAToolOfAFailedServerReconnectsIt: a failed server with no
// lists offered is asked to connect again by a call of one of its tools,
// as a call of a tool offered does, and the answer says so.
func TestCallOfAToolOfAFailedServerReconnectsIt(t *testing.T) {
	r := newRig(t, map[string]any{"fa": fault(nil, nil), "fx": fault([]string{"-no-such-flag"}, nil)}, Options{}, nil)
	r.waitFor("fx failed", func(g *Gateway) bool {
		for _, s := range g.snap.Servers {
			if s.Name == "fx" {
				return s.State == model.StateFailed
			}
		}
		return false
	})
	a := r.stdioAgent()
	got := callText(t, a, "fx__echo")
	if want := "server fx failed"; !strings.Contains(got, want) || !strings.Contains(got, "mcpdeck is connecting it again") {
		t.Errorf("calling fx__echo: %q, want %q and that mcpdeck connects it again", got, want)
	}
}
