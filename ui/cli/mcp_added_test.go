package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestAddSaysWhyTheServerWillNotRun: right after `mcp add`, a person learns
// whatever keeps the new server from running, on stderr, one note each.
func TestAddSaysWhyTheServerWillNotRun(t *testing.T) {
	t.Parallel()
	e := newCLIEnv(t)
	e.write(filepath.Join(e.managed, "managed-settings.json"), `{"deniedMcpServers": [{"serverName": "bad"}]}`)
	e.ok("mcp", "add", "shadow", "--", "local-version")
	for _, tc := range []struct {
		args []string
		want string // "" = no note at all
	}{
		{[]string{"mcp", "add", "plain", "--", "x"}, ""},
		{[]string{"mcp", "add", "bad", "--", "x"}, `Note: managed policy blocks bad (deniedMcpServers: serverName "bad"), so it will not run.`},
		{[]string{"mcp", "add", "needs-var", "-e", "T=${MCPDECK_TEST_UNSET}", "--", "x"}, "field env.T: ${MCPDECK_TEST_UNSET} is not set ("},
		{[]string{"mcp", "add", "-s", "user", "shadow", "--", "user-version"}, "Note: the local definition of shadow (" + e.scopeFile("local") + ") takes precedence over this one."},
		{[]string{"mcp", "add-json", "-s", "user", "bad", `{"command": "y"}`}, "Note: the local definition of bad"},
	} {
		r := e.ok(tc.args...)
		if !strings.HasPrefix(r.stdout, "Added ") {
			t.Errorf("%v: stdout %q", tc.args, r.stdout)
		}
		switch {
		case tc.want == "" && r.stderr != "":
			t.Errorf("%v: unexpected note %q", tc.args, r.stderr)
		case tc.want != "" && (!strings.Contains(r.stderr, tc.want) || strings.Count(r.stderr, "\n") != 1):
			t.Errorf("%v: stderr %q, want one note with %q", tc.args, r.stderr, tc.want)
		}
	}

	e.write(filepath.Join(e.managed, "managed-mcp.json"), `{"mcpServers": {}}`)
	r := e.ok("mcp", "add", "ignored", "--", "x")
	if !strings.Contains(r.stderr, "managed-mcp.json in the managed directory is in effect, so mcpdeck ignores ignored") {
		t.Errorf("enterprise: stderr %q", r.stderr)
	}
}

// TestAddJSONProjectAsksForApproval: add-json says what add says about a
// project server (it runs only once approved).
func TestAddJSONProjectAsksForApproval(t *testing.T) {
	t.Parallel()
	e := newCLIEnv(t)
	r := e.ok("mcp", "add-json", "-s", "project", "shared", `{"command": "x"}`)
	if !strings.Contains(r.stdout, "run only once approved: mcpdeck mcp approve shared") {
		t.Errorf("stdout %q", r.stdout)
	}
}
