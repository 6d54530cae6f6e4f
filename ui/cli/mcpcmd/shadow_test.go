package mcpcmd

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// TestAddSaysWhichScopeWins: adding a name another scope defines says, on
// stderr, which definition runs: this one when its scope wins (local over
// project over user), the other one otherwise.
func TestAddSaysWhichScopeWins(t *testing.T) {
	t.Parallel()
	e := clitest.NewEnv(t)
	e.OK("mcp", "add", "-s", "user", "dup", "--", "user-version")
	r := e.OK("mcp", "add", "dup", "--", "local-version")
	want := "Note: this definition takes precedence over the user definition of dup (" + e.ScopeFile("user") + "), which no longer runs.\n"
	if r.Stderr != want {
		t.Errorf("adding a local dup over a user one:\n got %q\nwant %q", r.Stderr, want)
	}
	r = e.OK("mcp", "add-json", "-s", "project", "dup", `{"command": "project-version"}`)
	if !strings.Contains(r.Stderr, "Note: the local definition of dup ("+e.ScopeFile("local")+") takes precedence over this one.") {
		t.Errorf("adding a project dup under a local one: %s", r)
	}
}

// TestRemoveOfANameInSeveralScopesGivesEachCommand: mcp remove NAME, when
// NAME is in several scopes, prints the exact command for each and exits
// 1; each command works. With --json the error names the scopes.
func TestRemoveOfANameInSeveralScopesGivesEachCommand(t *testing.T) {
	t.Parallel()
	e := clitest.NewEnv(t)
	e.OK("mcp", "add", "-s", "user", "dup", "--", "user-version")
	e.OK("mcp", "add", "dup", "--", "local-version")
	r := e.Run("mcp", "remove", "dup")
	want := "mcpdeck: server dup is defined in several scopes; name the one to remove:\n" +
		"  mcpdeck mcp remove dup -s local\n" +
		"  mcpdeck mcp remove dup -s user\n"
	if r.Code != 1 || r.Stderr != want || r.Stdout != "" {
		t.Fatalf("got %s\nwant stderr %q", r, want)
	}
	r = e.Run("--json", "mcp", "remove", "dup")
	var doc struct{ Error string }
	if err := json.Unmarshal([]byte(r.Stderr), &doc); r.Code != 1 || err != nil || !strings.Contains(doc.Error, "several scopes (local, user)") {
		t.Errorf("--json: %v %s", err, r)
	}
	for _, line := range strings.Split(strings.TrimSpace(want), "\n")[1:] {
		args := strings.Fields(line)[1:] // the words after "mcpdeck"
		if r := e.OK(args...); !strings.HasPrefix(r.Stdout, "Removed server dup from the "+args[len(args)-1]+" scope") {
			t.Errorf("%s: %s", line, r)
		}
	}
}
