package mcpcmd

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// TestAddSaysWhyTheServerWillNotRun: right after `mcp add`, a person learns
// whatever keeps the new server from running, on stderr, one note each.
func TestAddSaysWhyTheServerWillNotRun(t *testing.T) {
	t.Parallel()
	e := clitest.NewEnv(t)
	e.WriteFile(filepath.Join(e.Managed, "managed-settings.json"), `{"deniedMcpServers": [{"serverName": "bad"}]}`)
	e.OK("mcp", "add", "shadow", "--", "local-version")
	for _, tc := range []struct {
		args []string
		want string // "" = no note at all
	}{
		{[]string{"mcp", "add", "plain", "--", "x"}, ""},
		{[]string{"mcp", "add", "bad", "--", "x"}, `Note: managed policy blocks bad (deniedMcpServers: serverName "bad"), so it will not run.`},
		{[]string{"mcp", "add", "needs-var", "-e", "T=${MCPDECK_TEST_UNSET}", "--", "x"}, "field env.T: ${MCPDECK_TEST_UNSET} is not set ("},
		{[]string{"mcp", "add", "-s", "user", "shadow", "--", "user-version"}, "Note: the local definition of shadow (" + e.ScopeFile("local") + ") takes precedence over this one."},
		{[]string{"mcp", "add-json", "-s", "user", "bad", `{"command": "y"}`}, "Note: the local definition of bad"},
	} {
		r := e.OK(tc.args...)
		if !strings.HasPrefix(r.Stdout, "Added ") {
			t.Errorf("%v: stdout %q", tc.args, r.Stdout)
		}
		switch {
		case tc.want == "" && r.Stderr != "":
			t.Errorf("%v: unexpected note %q", tc.args, r.Stderr)
		case tc.want != "" && (!strings.Contains(r.Stderr, tc.want) || strings.Count(r.Stderr, "\n") != 1):
			t.Errorf("%v: stderr %q, want one note with %q", tc.args, r.Stderr, tc.want)
		}
	}

	e.WriteFile(filepath.Join(e.Managed, "managed-mcp.json"), `{"mcpServers": {}}`)
	r := e.OK("mcp", "add", "ignored", "--", "x")
	if !strings.Contains(r.Stderr, "managed-mcp.json in the managed directory is in effect, so mcpdeck ignores ignored") {
		t.Errorf("enterprise: stderr %q", r.Stderr)
	}
}

// TestAddJSONProjectAsksForApproval: add-json says what add says about a
// project server (it runs only once approved).
func TestAddJSONProjectAsksForApproval(t *testing.T) {
	t.Parallel()
	e := clitest.NewEnv(t)
	r := e.OK("mcp", "add-json", "-s", "project", "shared", `{"command": "x"}`)
	if !strings.Contains(r.Stdout, "run only once approved: mcpdeck mcp approve shared") {
		t.Errorf("stdout %q", r.Stdout)
	}
}
