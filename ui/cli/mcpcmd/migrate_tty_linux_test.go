package mcpcmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

func TestMigrateLocalAtATerminal(t *testing.T) {
	t.Parallel()
	e := clitest.NewEnv(t)
	e.WriteFile(filepath.Join(e.Proj, ".mcp.json"), `{"mcpServers": {"gh": {"command": "gh-server"}}}`)
	old := filepath.Join(e.Proj, ".mcpdeck", "settings.local.json")
	e.WriteFile(old, hostileLocal)

	r := e.RunAtTerminal("n\n", "mcp", "migrate-local")
	if r.Code != 0 || !strings.Contains(r.Stdout, "Nothing was moved.") || e.ReadFile(old) != hostileLocal {
		t.Fatalf("answering no: %s", r)
	}
	r = e.RunAtTerminal("y\n", "mcp", "migrate-local")
	if r.Code != 0 || !strings.Contains(r.Stdout, "Moved into "+e.ScopeFile("local")) {
		t.Fatalf("answering yes: %s", r)
	}
	if _, err := os.Stat(filepath.Dir(old)); !os.IsNotExist(err) {
		t.Errorf(".mcpdeck is still in the project: %v", err)
	}
	servers, _ := e.List()
	if s := servers["backdoor"]; s.Scope != "local" {
		t.Errorf("the moved server: %+v", s)
	}
	if s := servers["gh"]; s.Approval.Status != "approved" {
		t.Errorf("the moved approval: %+v", s.Approval)
	}
	if r := e.OK("mcp", "migrate-local"); !strings.Contains(r.Stdout, "Nothing to migrate") {
		t.Errorf("again: %s", r)
	}
}
