package mcpcmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// TestGetShowsLiveStatus: `mcp get` connects the one server it shows and
// says how it went, as `claude mcp get` does; --no-connect only reads the
// files, and a server that may not run is never started.
func TestGetShowsLiveStatus(t *testing.T) {
	e := clitest.NewEnv(t)
	marker := filepath.Join(t.TempDir(), "other-ran")
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"calc":  map[string]any{"command": clitest.Binary, "args": []string{"demo-server", "calculator"}},
		"other": map[string]any{"command": "sh", "args": []string{"-c", "touch '" + marker + "'"}},
		"gone":  map[string]any{"command": "no-such-command-mcpdeck"},
	}})
	c := string(cfg)
	r := e.OK("--mcp-config", c, "mcp", "get", "calc")
	if !strings.Contains(r.Stdout, "Status:         ✓ connected · 2 tools") {
		t.Errorf("mcp get calc: no live status:\n%s", r)
	}
	r = e.OK("--mcp-config", c, "--json", "mcp", "get", "calc")
	var doc struct {
		Name   string
		Status *struct {
			State string
			Tools int
		}
	}
	if err := json.Unmarshal([]byte(r.Stdout), &doc); err != nil || doc.Status == nil || doc.Status.State != "connected" || doc.Status.Tools != 2 {
		t.Errorf("mcp get --json: %v %s", err, r)
	}
	r = e.OK("--mcp-config", c, "mcp", "get", "gone")
	if !strings.Contains(r.Stdout, "Status:         ✗ failed") || !strings.Contains(r.Stdout, "no-such-command-mcpdeck") {
		t.Errorf("mcp get gone: %s", r)
	}
	r = e.OK("--mcp-config", c, "mcp", "get", "calc", "--no-connect")
	if strings.Contains(r.Stdout, "Status:") {
		t.Errorf("--no-connect connected: %s", r)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("mcp get calc started another server")
	}
	e.OK("--mcp-config", c, "mcp", "disable", "other")
	if r := e.OK("--mcp-config", c, "mcp", "get", "other"); strings.Contains(r.Stdout, "Status:") {
		t.Errorf("a disabled server got a status: %s", r)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("mcp get started a disabled server")
	}
}
