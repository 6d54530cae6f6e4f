package mcpcmd

import (
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// TestReviewAsksAtATerminal: at a terminal, mcp review shows the diff and
// asks; no keeps the tool withheld, yes accepts it; nothing from the
// server moves the cursor or rewrites the screen.
func TestReviewAsksAtATerminal(t *testing.T) {
	e := clitest.NewEnv(t)
	tools := pinProject(t, e)
	e.OK("call", "pin", "send_email")
	e.WriteFile(tools, poisonedTools)
	shown := onTerminal(t, e, "n", "mcp", "review", "pin")
	if !strings.Contains(shown, "{+ <IMPORTANT>") || !strings.Contains(shown, "Accept these 1 change(s) of pin? [y/N]") || strings.Contains(shown, "Accepted") {
		t.Fatalf("answered no:\n%s", shown)
	}
	assertNoControls(t, shown, true)
	e.Fails(1, "call", "pin", "send_email")
	if shown := onTerminal(t, e, "y", "mcp", "review", "pin"); !strings.Contains(shown, "Accepted tool send_email of pin.") {
		t.Fatalf("answered yes:\n%s", shown)
	}
	e.OK("call", "pin", "send_email")
}
