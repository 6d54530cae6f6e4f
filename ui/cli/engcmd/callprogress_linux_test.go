package engcmd

import (
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// TestCallProgressIsOneLineOnATerminal: on a terminal a call's progress is
// one line drawn again in place (carriage return and erase line, never a
// new line per update), with a bar for a known total, and erased before
// the result; the result goes to stdout as usual.
func TestCallProgressIsOneLineOnATerminal(t *testing.T) {
	e := clitest.NewEnv(t)
	r := e.RunStderrAtTerminal("--mcp-config", clitest.EngServers(t, nil), "call", "calc", "slow_count", `{"n":3}`)
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != "counted to 3" {
		t.Fatalf("call: %s", r)
	}
	if !strings.Contains(r.Stderr, "\r\x1b[2Kprogress ▕") || !strings.Contains(r.Stderr, "/3 counted ") {
		t.Errorf("no progress bar drawn in place: %q", r.Stderr)
	}
	if strings.Contains(r.Stderr, "\n") || !strings.HasSuffix(r.Stderr, "\r\x1b[2K") {
		t.Errorf("progress took more than one line, or was not erased: %q", r.Stderr)
	}
}
