package serve

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
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
	// An error, or (while mcp-go still holds the list serve just
	// replaced) the handler's error result: either says the same.
	call := func(name string) string {
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = name, map[string]any{"text": "x"}
		res, err := a.CallTool(t.Context(), req)
		switch {
		case err != nil:
			return err.Error()
		case res.IsError:
			return resultText(res)
		}
		t.Fatalf("calling %s: %v, want an error", name, res)
		return ""
	}
	got := call("fb__echo")
	if want := `mcpdeck serve offers no tool "fb__echo" now: server fb is disabled`; !strings.Contains(got, want) {
		t.Errorf("calling fb__echo: %q, want %q", got, want)
	}
	for _, name := range []string{"nope__echo", "fa__nope"} {
		if got := call(name); !strings.Contains(got, "not found") || strings.Contains(got, "offers no tool") {
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
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = "fa__echo", map[string]any{"text": "x"}
	res, err := a.CallTool(t.Context(), req)
	got := ""
	switch {
	case err != nil:
		got = err.Error()
	case res.IsError:
		got = resultText(res)
	default:
		t.Fatalf("the call went through: %v", res)
	}
	want := `mcpdeck serve offers no tool "fa__echo" now: server fa's tool echo is denied by a permission rule (deny: every tool while ` + settings + ` cannot be read)`
	if !strings.Contains(got, want) {
		t.Errorf("calling fa__echo: %q, want %q", got, want)
	}
}
