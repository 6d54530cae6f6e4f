package mcpcmd

import (
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// TestMistypedServerNamesGetADidYouMean: the mcp commands that take a
// server name, and auth, name the configured server a typo most likely
// meant (one rule with the subcommands' suggestions, clinames.Suggest);
// exit 1 as before.
func TestMistypedServerNamesGetADidYouMean(t *testing.T) {
	t.Parallel()
	e := clitest.NewEnv(t)
	e.OK("mcp", "add", "everything", "--", "x")
	e.OK("mcp", "add", "-s", "user", "remote-api", "https://example.com/mcp")
	for _, args := range [][]string{
		{"mcp", "get", "everythin"},
		{"mcp", "get", "Everything", "--no-connect"},
		{"mcp", "disable", "evrything"},
		{"mcp", "remove", "everythign"},
		{"mcp", "sampling", "everythin", "never"},
	} {
		r := e.Fails(1, args...)
		if !strings.Contains(r.Stderr, `did you mean "everything"?`) {
			t.Errorf("%q: %s", args, r)
		}
	}
	if r := e.Fails(1, "auth", "remote-apj"); !strings.Contains(r.Stderr, `did you mean "remote-api"?`) {
		t.Errorf("auth: %s", r)
	}
	if r := e.Fails(1, "mcp", "get", "nothing-like-it"); strings.Contains(r.Stderr, "did you mean") || !strings.Contains(r.Stderr, "(configured: ") {
		t.Errorf("a name close to nothing: %s", r)
	}
}
