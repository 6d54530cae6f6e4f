package cli

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRelativePathsOfUserServersAreNamed: a user server that now runs in
// the home directory while its arguments hold relative paths is named,
// with those paths and the ${PROJECT_DIR} opt-in, by `mcp add -s user`,
// `mcp get` and doctor; `mcp get` says where every stdio server runs, and
// what the opt-in allows. A local server (it runs in the project) and a
// user server without relative paths get no such note.
func TestRelativePathsOfUserServersAreNamed(t *testing.T) {
	t.Parallel()
	e := newCLIEnv(t)
	e.write(filepath.Join(e.proj, "data", "db.sqlite"), "")
	settings := filepath.Join(e.config, "mcpdeck", "settings.json")
	const missing = "mcpdeck-test-no-such-server" // so that doctor starts nothing real
	want := `server fs runs in your home directory ` + e.home + `, so its relative paths ., ./data, data/db.sqlite now name what is there, not in the project; ` +
		`to run it in the project you start mcpdeck in, set "cwd": "${PROJECT_DIR}" in ` + settings

	r := e.ok("mcp", "add", "-s", "user", "fs", "--", missing, "-y", "@modelcontextprotocol/server-filesystem@1.0.0", ".", "./data", "data/db.sqlite")
	if !strings.Contains(r.stderr, "Note: "+want+".\n") {
		t.Errorf("mcp add -s user does not name the relative paths:\n%s", r)
	}
	for _, args := range [][]string{
		{"mcp", "add", "-s", "local", "loc", "--", missing, "./data"},
		{"mcp", "add", "-s", "user", "clean", "--", missing, "-y", "pkg@1.0.0", "stdio"},
	} {
		if r := e.ok(args...); strings.Contains(r.stderr, "relative paths") {
			t.Errorf("%v: a note for a server whose paths keep their meaning:\n%s", args, r)
		}
	}
	e.ok("mcp", "add-json", "-s", "user", "opted", `{"command":"`+missing+`","args":["."],"cwd":"${PROJECT_DIR}"}`)

	r = e.ok("mcp", "get", "fs", "--no-connect")
	if !strings.Contains(r.stdout, "  Runs in:        "+e.home+"\n") || !strings.Contains(r.stdout, "  Warning:        "+want+"\n") {
		t.Errorf("mcp get fs:\n%s", r)
	}
	r = e.ok("mcp", "get", "loc", "--no-connect")
	if !strings.Contains(r.stdout, "  Runs in:        "+e.proj+"\n") || strings.Contains(r.stdout, "Warning") {
		t.Errorf("mcp get loc:\n%s", r)
	}
	r = e.ok("mcp", "get", "opted", "--no-connect")
	if !strings.Contains(r.stdout, "  Runs in:        "+e.proj+"\n") ||
		!strings.Contains(r.stdout, "  In the project: its cwd ${PROJECT_DIR} runs it in the project mcpdeck is started in, so that project's node_modules and .npmrc (npm, npx)") ||
		!strings.Contains(r.stdout, "NuGet.Config (dnx) can change what it runs, with its environment and secrets") || strings.Contains(r.stdout, "Warning") {
		t.Errorf("mcp get opted:\n%s", r)
	}
	var doc struct {
		RunsIn       string   `json:"runsIn"`
		HomeRelative []string `json:"homeRelative"`
	}
	if err := json.Unmarshal([]byte(e.ok("mcp", "get", "fs", "--no-connect", "--json").stdout), &doc); err != nil ||
		doc.RunsIn != e.home || !slices.Equal(doc.HomeRelative, []string{".", "./data", "data/db.sqlite"}) {
		t.Errorf("mcp get --json: %+v %v", doc, err)
	}

	r = e.run("doctor")
	if !strings.Contains(r.stdout, "! "+want+"\n") || !strings.Contains(r.stdout, "• server opted: its cwd ${PROJECT_DIR} runs it in the project") {
		t.Errorf("doctor:\n%s", r)
	}
	for _, quiet := range []string{"server loc runs", "server clean runs"} {
		if strings.Contains(r.stdout, quiet) {
			t.Errorf("doctor warns about %q:\n%s", quiet, r.stdout)
		}
	}
}
