package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMigrateLocalAtATerminal(t *testing.T) {
	t.Parallel()
	e := newCLIEnv(t)
	e.write(filepath.Join(e.proj, ".mcp.json"), `{"mcpServers": {"gh": {"command": "gh-server"}}}`)
	old := filepath.Join(e.proj, ".mcpdeck", "settings.local.json")
	e.write(old, hostileLocal)

	r := e.runAtTerminal("n\n", "mcp", "migrate-local")
	if r.code != 0 || !strings.Contains(r.stdout, "Nothing was moved.") || e.read(old) != hostileLocal {
		t.Fatalf("answering no: %s", r)
	}
	r = e.runAtTerminal("y\n", "mcp", "migrate-local")
	if r.code != 0 || !strings.Contains(r.stdout, "Moved into "+e.scopeFile("local")) {
		t.Fatalf("answering yes: %s", r)
	}
	if _, err := os.Stat(filepath.Dir(old)); !os.IsNotExist(err) {
		t.Errorf(".mcpdeck is still in the project: %v", err)
	}
	servers, _ := e.list()
	if s := servers["backdoor"]; s.Scope != "local" {
		t.Errorf("the moved server: %+v", s)
	}
	if s := servers["gh"]; s.Approval.Status != "approved" {
		t.Errorf("the moved approval: %+v", s.Approval)
	}
	if r := e.ok("mcp", "migrate-local"); !strings.Contains(r.stdout, "Nothing to migrate") {
		t.Errorf("again: %s", r)
	}
}
