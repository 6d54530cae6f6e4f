package cli

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// TestFloodFromTheCLI: a server sends a hundred sampling requests at once
// while the sampling command takes its time (it never ends): the engine
// lets four wait, declines the other 96 at once with JSON-RPC error -32000
// (the server tallies them), and stderr tells of the burst once, with its
// final counts.
func TestFloodFromTheCLI(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the sampling command is a POSIX shell line")
	}
	e := clitest.NewEnv(t)
	e.Extra = append(e.Extra, "MCP_TOOL_TIMEOUT=60000") // without the limit, the tally never comes
	fault := clitest.BuildFaultServer(t, t.TempDir())
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"f": map[string]any{"command": fault, "args": []string{"-sample-flood", "100"}}}})
	r := e.OK("--mcp-config", string(cfg), "--sampling-command", "exec sleep 60", "call", "f", "flood_answers", `{"want":96}`)
	if want := `"-32000 mcpdeck: too many pending requests from this server (limit 4); declined":96`; !strings.Contains(r.Stdout, want) {
		t.Errorf("the server's tally lacks %s:\n%s", want, r.Stdout)
	}
	notice := "mcpdeck: server f sent 100 requests at once; mcpdeck lets 4 wait for an answer and declined the rest (96)\n"
	if n := strings.Count(r.Stderr, "requests at once"); n != 1 || !strings.Contains(r.Stderr, notice) {
		t.Errorf("stderr tells of the burst %d times, want once as %q:\n%s", n, notice, r.Stderr)
	}
}
