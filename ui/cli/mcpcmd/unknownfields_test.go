package mcpcmd

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// TestAddJSONNamesUnknownFields: a field close to a known one is refused
// as a typo, naming the field it most likely meant, and nothing is added;
// another unknown field is kept (another client may use it) and named.
func TestAddJSONNamesUnknownFields(t *testing.T) {
	t.Parallel()
	e := clitest.NewEnv(t)
	for name, tc := range map[string]struct{ def, want string }{
		"typo":       {`{"command": "npx", "agrs": ["-y", "pkg"]}`, `the definition of server typo has an unknown field "agrs": did you mean "args"? (nothing was added).`},
		"oauth-typo": {`{"type": "http", "url": "https://e.example/mcp", "oauth": {"clientID": "x"}}`, `unknown field "oauth.clientID": did you mean "oauth.clientId"?`},
	} {
		if r := e.Fails(1, "mcp", "add-json", name, tc.def); !strings.Contains(r.Stderr, tc.want) {
			t.Errorf("%s: want %q, got %s", name, tc.want, r)
		}
	}
	if servers, _ := e.List(); len(servers) != 0 {
		t.Errorf("a refused definition was added: %v", servers)
	}
	r := e.OK("mcp", "add-json", "kept", `{"command": "npx", "timeout": 30000, "sampling": {"command": "reply"}}`)
	if r.Stderr != "Note: unknown field \"timeout\": mcpdeck does not use it; it is kept as written.\n" {
		t.Errorf("an unknown field without a near miss: %s", r)
	}
	if !strings.Contains(e.ReadFile(e.ScopeFile("local")), `"timeout": 30000`) {
		t.Errorf("the unknown field was not kept:\n%s", e.ReadFile(e.ScopeFile("local")))
	}
}

// TestGetListsConfigProblems: mcp get lists a definition's problems and
// unknown fields under "Config problems" (--json: unknownFields), and says
// "Config problems: none" only when nothing is wrong and the server did
// not fail: never next to a failed status.
func TestGetListsConfigProblems(t *testing.T) {
	t.Parallel()
	e := clitest.NewEnv(t)
	e.WriteFile(filepath.Join(e.Config, "mcpdeck", "settings.json"), `{"mcpServers": {
		"typo": {"command": "sh", "agrs": ["-c", "exit 3"], "oauth": {"scope": ["x"]}},
		"crash": {"command": "sh", "args": ["-c", "exit 3"]}}}`)
	r := e.OK("mcp", "get", "typo", "--no-connect")
	want := "  Config problems:\n" +
		"    unknown field \"agrs\" (did you mean \"args\"?): mcpdeck does not use it\n" +
		"    unknown field \"oauth.scope\" (did you mean \"oauth.scopes\"?): mcpdeck does not use it\n"
	if !strings.Contains(r.Stdout, want) || strings.Contains(r.Stdout, "none") {
		t.Errorf("mcp get typo:\n%s\nwant\n%s", r.Stdout, want)
	}
	r = e.OK("--json", "mcp", "get", "typo", "--no-connect")
	var doc struct {
		UnknownFields []string `json:"unknownFields"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &doc); err != nil || strings.Join(doc.UnknownFields, " ") != "agrs oauth.scope" {
		t.Errorf("--json unknownFields = %v (%v)", doc.UnknownFields, err)
	}
	if r := e.OK("mcp", "get", "crash", "--no-connect"); !strings.Contains(r.Stdout, "  Config problems: none\n") {
		t.Errorf("--no-connect on a sound definition:\n%s", r.Stdout)
	}
	r = e.OK("mcp", "get", "crash")
	if !strings.Contains(r.Stdout, "Status:         ✗") || strings.Contains(r.Stdout, "none") {
		t.Errorf("a failed status next to \"none\":\n%s", r.Stdout)
	}
}
