package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// TestOneVersion: `mcpdeck version` says what --version says, and its
// first word is the version servers are told in initialize (not "dev").
func TestOneVersion(t *testing.T) {
	e := clitest.NewEnv(t)
	v := strings.TrimSpace(e.OK("version").Stdout)
	if want := strings.TrimSpace(e.OK("--version").Stdout); v != want {
		t.Errorf("mcpdeck version = %q, --version = %q", v, want)
	}
	word := strings.Fields(strings.TrimPrefix(v, "mcpdeck version "))[0]
	fault := clitest.BuildFaultServer(t, t.TempDir())
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"f": map[string]any{"command": fault, "args": []string{"-say-client"}}}})
	r := e.OK("--json", "--mcp-config", string(cfg), "mcp", "list")
	if want := `"instructions": "client mcpdeck ` + word + `"`; !strings.Contains(r.Stdout, want) {
		t.Errorf("servers are not told %q (want %s):\n%s", word, want, r.Stdout)
	}
}
