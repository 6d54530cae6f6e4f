package mcpcmd

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// TestListFailsOnABrokenConfigFileEvenWhenConnecting: a broken .mcp.json is
// an error with file:line:col, and `mcp list` exits 1 with it whether it
// connects or not, after listing the servers that did load.
func TestListFailsOnABrokenConfigFileEvenWhenConnecting(t *testing.T) {
	e := clitest.NewEnv(t)
	e.WriteFile(filepath.Join(e.Proj, ".mcp.json"), "{\"mcpServers\": {\n  \"a\": {\"command\": \"x\",}\n}}")
	cfg := clitest.EngServers(t, nil)
	for _, args := range [][]string{
		{"--mcp-config", cfg, "mcp", "list"},
		{"--mcp-config", cfg, "mcp", "list", "--no-connect"},
	} {
		r := e.Run(args...)
		if r.Code != 1 || !strings.Contains(r.Stderr, ".mcp.json:2:") || !strings.Contains(r.Stdout, "calc") {
			t.Errorf("%v: want exit 1, the servers that loaded, and the broken file named with its line: %s", args, r)
		}
	}
}

// TestListShowsTheUnreadableProjectFileAsARow: with only a half-saved
// .mcp.json, `mcp list` (connecting or not) prints the project's row, with
// line:col, as the TUI does, not "No MCP servers configured"; --json gives
// the same problem with its scope; stderr names the file in full; exit 1.
func TestListShowsTheUnreadableProjectFileAsARow(t *testing.T) {
	e := clitest.NewEnv(t)
	mcpJSON := filepath.Join(e.Proj, ".mcp.json")
	e.WriteFile(mcpJSON, "{\"mcpServers\": {\n  \"a\": {\"command\": \"x\"},\n  \"b\": {\n")
	row := "project — .mcp.json unreadable (4:1): invalid JSON: unexpected end of file (truncated JSON?)"
	for _, args := range [][]string{{"mcp", "list"}, {"mcp", "list", "--no-connect"}} {
		r := e.Run(args...)
		if r.Code != 1 || !strings.Contains(r.Stdout, row) || strings.Contains(r.Stdout, "No MCP servers configured") {
			t.Errorf("%v: want exit 1 and the row %q on stdout: %s", args, row, r)
		}
		if !strings.Contains(r.Stderr, mcpJSON+":4:1") {
			t.Errorf("%v: stderr does not name the file in full: %s", args, r)
		}
	}
	for _, args := range [][]string{{"--json", "mcp", "list"}, {"--json", "mcp", "list", "--no-connect"}} {
		r := e.Run(args...)
		var doc struct {
			Problems []struct {
				Scope, File, Message string
				Line, Col            int
			}
		}
		if err := json.Unmarshal([]byte(r.Stdout), &doc); err != nil || r.Code != 1 || len(doc.Problems) != 1 {
			t.Fatalf("%v: %v\n%s", args, err, r)
		}
		if p := doc.Problems[0]; p.Scope != "project" || p.File != mcpJSON || p.Line != 4 || p.Col != 1 || !strings.Contains(p.Message, "unexpected end of file") {
			t.Errorf("%v: problem = %+v, want the project file's at 4:1", args, p)
		}
	}
}

// TestListOrderIsStableWhenPiped: servers are printed in the configuration's
// order (scope, then name) whatever order they connect in, and a pipe gets
// no progress line.
func TestListOrderIsStableWhenPiped(t *testing.T) {
	e := clitest.NewEnv(t)
	cfg := clitest.EngServers(t, nil)
	r := e.OK("--mcp-config", cfg, "mcp", "list")
	var names []string
	for _, l := range strings.Split(strings.TrimSpace(r.Stdout), "\n") {
		if f := strings.Fields(l); len(f) > 1 {
			names = append(names, strings.TrimSuffix(f[1], ":"))
		}
	}
	if strings.Join(names, " ") != "calc notes survey" {
		t.Errorf("mcp list order = %v, want calc notes survey\n%s", names, r)
	}
	if strings.ContainsAny(r.Stderr+r.Stdout, "\r\x1b") {
		t.Errorf("piped mcp list wrote terminal control: %q", r.Stderr)
	}
	r = e.OK("--mcp-config", cfg, "tools")
	if a, b, c := strings.Index(r.Stdout, "calc ("), strings.Index(r.Stdout, "notes ("), strings.Index(r.Stdout, "survey ("); a < 0 || a > b || b > c {
		t.Errorf("tools order: want calc, notes, survey:\n%s", r.Stdout)
	}
	r = e.OK("--mcp-config", cfg, "--json", "mcp", "list")
	var doc struct{ Servers []struct{ Name string } }
	if err := json.Unmarshal([]byte(r.Stdout), &doc); err != nil || len(doc.Servers) != 3 || doc.Servers[0].Name != "calc" || doc.Servers[2].Name != "survey" {
		t.Errorf("mcp list --json order: %v %s", err, r)
	}
}

// TestResourceCountsAgree: mcp list and the resources command count
// resources and templates apart, in the same words.
func TestResourceCountsAgree(t *testing.T) {
	e := clitest.NewEnv(t)
	cfg := clitest.EngServers(t, nil)
	count := regexp.MustCompile(`\d+ resources? · \d+ templates?`)
	var list string
	for _, l := range strings.Split(e.OK("--mcp-config", cfg, "mcp", "list").Stdout, "\n") {
		if strings.Contains(l, " notes: ") {
			list = count.FindString(l)
		}
	}
	header := count.FindString(e.OK("--mcp-config", cfg, "resources", "notes").Stdout)
	if list == "" || list != header {
		t.Errorf("mcp list says %q, resources says %q", list, header)
	}
}

func TestEngMCPListConnectsAndReports(t *testing.T) {
	e := clitest.NewEnv(t)
	cfg := clitest.EngServers(t, map[string]any{
		"down": map[string]any{"type": "http", "url": fmt.Sprintf("http://127.0.0.1:%d/mcp", clitest.ClosedPort(t))},
		"off":  map[string]any{"command": clitest.Binary, "args": []string{"demo-server", "weather"}},
	})
	e.OK("--mcp-config", cfg, "mcp", "disable", "off")
	r := e.Run("--mcp-config", cfg, "mcp", "list")
	if r.Code != 1 {
		t.Fatalf("want exit 1 (a server failed), got %s", r)
	}
	lines := strings.Split(strings.TrimSpace(r.Stdout), "\n")
	if len(lines) != 6 || lines[0] != "dynamic" { // --mcp-config's scope heads them
		t.Fatalf("want a heading and one line per server, got %s", r)
	}
	for i := range lines {
		lines[i] = strings.TrimPrefix(lines[i], "  ")
	}
	want := map[string]string{
		"calc":   "✓ calc: ",
		"notes":  "✓ notes: ",
		"survey": "✓ survey: ",
		"down":   "✗ down: ",
		"off":    "○ off: ",
	}
	for name, prefix := range want {
		found := false
		for _, l := range lines {
			if strings.HasPrefix(l, prefix) {
				found = true
			}
		}
		if !found {
			t.Errorf("no line for %s starting %q in:\n%s", name, prefix, r.Stdout)
		}
	}
	if !strings.Contains(r.Stdout, "refused") {
		t.Errorf("the failed server's line should say why:\n%s", r.Stdout)
	}
	if !strings.Contains(r.Stdout, "calc: ") || !strings.Contains(r.Stdout, "2 tools") {
		t.Errorf("connected line should count tools:\n%s", r.Stdout)
	}

	// --json: one object per server with its state
	r = e.Run("--mcp-config", cfg, "--json", "mcp", "list")
	var doc struct {
		Servers []struct {
			Name  string `json:"name"`
			State string `json:"state"`
			Error string `json:"error"`
		} `json:"servers"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &doc); err != nil {
		t.Fatalf("mcp list --json: %v\n%s", err, r)
	}
	states := map[string]string{}
	for _, s := range doc.Servers {
		states[s.Name] = s.State
	}
	if states["calc"] != "connected" || states["down"] != "failed" || states["off"] != "disabled" || len(states) != 5 {
		t.Errorf("states %v", states)
	}

	// without the failing server, exit 0
	e.OK("--mcp-config", clitest.EngServers(t, nil), "mcp", "list")
	e.OK("--mcp-config", clitest.EngServers(t, nil), "mcp", "reconnect", "calc")
	e.OK("--mcp-config", clitest.EngServers(t, nil), "mcp", "reconnect", "all")
}
