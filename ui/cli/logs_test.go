package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestServerLogMessagesOnStderr: log messages a server sends while a
// command runs go to stderr at or above --log-level (warning by default).
func TestServerLogMessagesOnStderr(t *testing.T) {
	e := newCLIEnv(t)
	fault := buildFaultServer(t, t.TempDir())
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"f": map[string]any{"command": fault}}})
	r := e.ok("--mcp-config", string(cfg), "call", "f", "flood", `{"count":3}`)
	if strings.Contains(r.stderr, "f info:") {
		t.Errorf("info messages printed at the default level (warning):\n%s", r.stderr)
	}
	r = e.ok("--mcp-config", string(cfg), "--log-level", "info", "call", "f", "flood", `{"count":3}`)
	for _, want := range []string{"f info: flood: flood 0", "f info: flood: flood 1", "f info: flood: flood 2"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("--log-level info: no %q on stderr:\n%s", want, r.stderr)
		}
	}
	e.fails(2, "--log-level", "loud", "mcp", "list")
}

// TestLogsCommand: `mcpdeck logs SERVER` connects that server, prints
// nothing on stdout (messages go to stderr), and refuses an unknown level.
func TestLogsCommand(t *testing.T) {
	e := newCLIEnv(t)
	cfg := engServers(t, nil)
	r := e.ok("--mcp-config", cfg, "logs", "calc") // no --follow: connect, print what came, stop
	if r.stdout != "" {
		t.Errorf("logs printed on stdout: %q", r.stdout)
	}
	e.fails(2, "--mcp-config", cfg, "logs", "calc", "--level", "loud")
}
