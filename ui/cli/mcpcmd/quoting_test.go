package mcpcmd

import (
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// TestCommandLinesKeepTheirQuoting: mcp list, mcp get and doctor show a
// command line as the words it runs (textsafe.QuoteCommand), as the TUI's
// detail view does: `sh -c '…'` keeps its quotes, and shell syntax in an
// argument is shown quoted, not as if a shell would run it.
func TestCommandLinesKeepTheirQuoting(t *testing.T) {
	e := clitest.NewEnv(t)
	script := "exec " + textsafe.QuoteArg(clitest.Binary) + " demo-server calculator"
	cfg := clitest.EngServers(t, map[string]any{
		"wrapped": map[string]any{"command": "sh", "args": []string{"-c", script, "$(id)"}},
	})
	want := "sh -c " + textsafe.QuoteArg(script) + " '$(id)'"
	r := e.OK("--mcp-config", cfg, "mcp", "list")
	if !strings.Contains(r.Stdout, "✓ wrapped: "+want+" (stdio)") {
		t.Errorf("mcp list: want %q in\n%s", want, r.Stdout)
	}
	r = e.OK("--mcp-config", cfg, "mcp", "get", "wrapped", "--no-connect")
	if !strings.Contains(r.Stdout, "Command:        "+want+"\n") {
		t.Errorf("mcp get: want %q in\n%s", want, r.Stdout)
	}
	r = e.Run("--mcp-config", cfg, "doctor") // exit 1 or 0 by the machine's other checks
	if !strings.Contains(r.Stdout, "✓ server wrapped: "+want+" (stdio)") {
		t.Errorf("doctor: want %q in\n%s", want, r)
	}
}
