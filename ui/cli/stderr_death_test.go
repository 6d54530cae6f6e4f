package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// TestStderrOfAServerThatDiesBeforeConnectingIsKept: what a stdio server
// printed before it exited is kept with its snapshot (mcp list --json and
// the TUI's Stderr tab read it), not only the last line in the error.
func TestStderrOfAServerThatDiesBeforeConnectingIsKept(t *testing.T) {
	e := clitest.NewEnv(t)
	script := `echo "Error: API_KEY is required" >&2; printf '{\n  "code": 7\n}\n' >&2; exit 1`
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"dies": map[string]any{"command": "sh", "args": []string{"-c", script}},
	}})
	r := e.Run("--mcp-config", string(cfg), "--json", "mcp", "list")
	var doc struct {
		Servers []struct {
			State      string
			StderrTail []string
		}
	}
	if err := json.Unmarshal([]byte(r.Stdout), &doc); err != nil || len(doc.Servers) != 1 {
		t.Fatalf("mcp list --json: %v %s", err, r)
	}
	s := doc.Servers[0]
	if s.State != "failed" || !strings.Contains(strings.Join(s.StderrTail, "\n"), "Error: API_KEY is required") {
		t.Errorf("stderr of a server that died before connecting: %+v", s)
	}
	// the one-line reason quotes the line naming the failure, not the object's "}"
	r = e.Run("--mcp-config", string(cfg), "mcp", "list")
	if !strings.Contains(r.Stdout, "exited with code 1: Error: API_KEY is required") {
		t.Errorf("mcp list reason: %s", r)
	}
}
