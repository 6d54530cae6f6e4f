package mcpcmd

import (
	"encoding/json"
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
