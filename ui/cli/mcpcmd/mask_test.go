package mcpcmd

import (
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// TestGetMasksSecretArgs checks that mcp get hides the value of a
// secret-looking flag given as written, and keeps ${VAR} references visible.
func TestGetMasksSecretArgs(t *testing.T) {
	t.Parallel()
	e := clitest.NewEnv(t)
	e.OK("mcp", "add", "srv", "--", "npx", "srv", "--api-key=literal-arg-secret", "--password", "hunter2-secret", "--token", "${GH}", "plain")
	for _, args := range [][]string{{"mcp", "get", "srv"}, {"mcp", "get", "srv", "--json"}, {"mcp", "list", "--no-connect", "--json"}} {
		out := e.OK(args...).Stdout
		if strings.Contains(out, "literal-arg-secret") || strings.Contains(out, "hunter2-secret") {
			t.Errorf("%v shows a secret argument:\n%s", args, out)
		}
		if !strings.Contains(out, "--api-key=****") || !strings.Contains(out, "${GH}") || !strings.Contains(out, "plain") {
			t.Errorf("%v should mask literal arguments and keep ${GH} and plain ones:\n%s", args, out)
		}
	}
	if s := e.Get("srv"); len(s.Args) != 7 || s.Args[3] != "****" || s.Args[6] != "plain" {
		t.Errorf("args = %q", s.Args)
	}
}
