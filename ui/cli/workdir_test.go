package cli

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// TestRelativePathsOfUserServersAreNamed: a user server that now runs in
// the home directory while its arguments hold relative paths is named,
// with those paths and the ${PROJECT_DIR} opt-in, by `mcp add -s user`,
// `mcp get` and doctor; `mcp get` says where every stdio server runs, and
// what the opt-in allows. A local server (it runs in the project) and a
// user server without relative paths get no such note.
func TestRelativePathsOfUserServersAreNamed(t *testing.T) {
	t.Parallel()
	e := clitest.NewEnv(t)
	e.WriteFile(filepath.Join(e.Proj, "data", "db.sqlite"), "")
	settings := filepath.Join(e.Config, "mcpdeck", "settings.json")
	const missing = "mcpdeck-test-no-such-server" // so that doctor starts nothing real
	want := `server fs runs in your home directory ` + e.Home + `, so its relative paths ., ./data, data/db.sqlite now name what is there, not in the project; ` +
		`to run it in the project you start mcpdeck in, set "cwd": "${PROJECT_DIR}" in ` + settings

	r := e.OK("mcp", "add", "-s", "user", "fs", "--", missing, "-y", "@modelcontextprotocol/server-filesystem@1.0.0", ".", "./data", "data/db.sqlite")
	if !strings.Contains(r.Stderr, "Note: "+want+".\n") {
		t.Errorf("mcp add -s user does not name the relative paths:\n%s", r)
	}
	for _, args := range [][]string{
		{"mcp", "add", "-s", "local", "loc", "--", missing, "./data"},
		{"mcp", "add", "-s", "user", "clean", "--", missing, "-y", "pkg@1.0.0", "stdio"},
	} {
		if r := e.OK(args...); strings.Contains(r.Stderr, "relative paths") {
			t.Errorf("%v: a note for a server whose paths keep their meaning:\n%s", args, r)
		}
	}
	e.OK("mcp", "add-json", "-s", "user", "opted", `{"command":"`+missing+`","args":["."],"cwd":"${PROJECT_DIR}"}`)

	r = e.OK("mcp", "get", "fs", "--no-connect")
	if !strings.Contains(r.Stdout, "  Runs in:        "+e.Home+"\n") || !strings.Contains(r.Stdout, "  Warning:        "+want+"\n") {
		t.Errorf("mcp get fs:\n%s", r)
	}
	r = e.OK("mcp", "get", "loc", "--no-connect")
	if !strings.Contains(r.Stdout, "  Runs in:        "+e.Proj+"\n") || strings.Contains(r.Stdout, "Warning") {
		t.Errorf("mcp get loc:\n%s", r)
	}
	r = e.OK("mcp", "get", "opted", "--no-connect")
	if !strings.Contains(r.Stdout, "  Runs in:        "+e.Proj+"\n") ||
		!strings.Contains(r.Stdout, "  In the project: its cwd ${PROJECT_DIR} runs it in the project mcpdeck is started in, so that project's node_modules and .npmrc (npm, npx)") ||
		!strings.Contains(r.Stdout, "NuGet.Config (dnx) can change what it runs, with its environment and secrets") || strings.Contains(r.Stdout, "Warning") {
		t.Errorf("mcp get opted:\n%s", r)
	}
	var doc struct {
		RunsIn       string   `json:"runsIn"`
		HomeRelative []string `json:"homeRelative"`
	}
	if err := json.Unmarshal([]byte(e.OK("mcp", "get", "fs", "--no-connect", "--json").Stdout), &doc); err != nil ||
		doc.RunsIn != e.Home || !slices.Equal(doc.HomeRelative, []string{".", "./data", "data/db.sqlite"}) {
		t.Errorf("mcp get --json: %+v %v", doc, err)
	}

	r = e.Run("doctor")
	if !strings.Contains(r.Stdout, "! "+want+"\n") || !strings.Contains(r.Stdout, "• server opted: its cwd ${PROJECT_DIR} runs it in the project") {
		t.Errorf("doctor:\n%s", r)
	}
	for _, quiet := range []string{"server loc runs", "server clean runs"} {
		if strings.Contains(r.Stdout, quiet) {
			t.Errorf("doctor warns about %q:\n%s", quiet, r.Stdout)
		}
	}
}
