package clisession

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

func TestEngListLineIsOneSafeLine(t *testing.T) {
	srv := engine.ServerSnapshot{
		Name: "x", Target: "evil\x1b[2J", Transport: model.TransportStdio, State: model.StateFailed,
		Error: "boom\nsecond line\u202e", Policy: model.PolicyDecision{Allowed: true}, Enabled: true,
	}
	line := ListLine(srv)
	if strings.ContainsAny(line, "\n\x1b\u202e") || !strings.HasPrefix(line, "✗ x: ") || !strings.Contains(line, "boom") {
		t.Errorf("list line %q", line)
	}
}

func TestEngMCPListShowsPendingApproval(t *testing.T) {
	e := clitest.NewEnv(t)
	mcpJSON := `{"mcpServers":{"repo":{"command":"` + clitest.Binary + `","args":["demo-server","reviewer"]}}}`
	if err := os.WriteFile(filepath.Join(e.Proj, ".mcp.json"), []byte(mcpJSON), 0o644); err != nil {
		t.Fatal(err)
	}
	r := e.OK("mcp", "list")
	if !strings.HasPrefix(r.Stdout, "project\n  … repo: ") || !strings.Contains(r.Stdout, "pending approval") ||
		!strings.Contains(r.Stdout, "(run: mcpdeck mcp approve repo)") {
		t.Errorf("unapproved project server: %s", r)
	}
	r = e.Fails(1, "call", "repo", "review", `{}`)
	if !strings.Contains(r.Stderr, "awaiting approval") {
		t.Errorf("call on an unapproved server: %s", r)
	}
	e.OK("mcp", "approve", "repo")
	r = e.OK("mcp", "list")
	if !strings.HasPrefix(r.Stdout, "project\n  ✓ repo: ") {
		t.Errorf("approved project server: %s", r)
	}
}

// TestEngOffServersSayHow: a server that is off because of the person or
// a policy is listed, and refused by call, with how it is off (disabled by
// you, rejected by you, blocked by policy), never as "disabled:" followed
// by another word for it.
func TestEngOffServersSayHow(t *testing.T) {
	e := clitest.NewEnv(t)
	def := `{"command":"` + clitest.Binary + `","args":["demo-server","reviewer"]}`
	e.WriteFile(filepath.Join(e.Proj, ".mcp.json"), `{"mcpServers":{"repo":`+def+`}}`)
	e.WriteFile(filepath.Join(e.Config, "mcpdeck", "settings.json"), `{"mcpServers":{"mine":`+def+`,"banned":`+def+`}}`)
	e.WriteFile(filepath.Join(e.Managed, "managed-settings.json"), `{"deniedMcpServers":[{"serverName":"banned"}]}`)
	e.OK("mcp", "reject", "repo")
	e.OK("mcp", "disable", "mine")
	r := e.Run("mcp", "list")
	for _, want := range []string{
		" — rejected by you\n",
		" — disabled by you (enable it to connect)\n",
		" — blocked by policy rule ",
	} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("mcp list lacks %q:\n%s", want, r)
		}
	}
	if strings.Contains(r.Stdout, "disabled: ") {
		t.Errorf("mcp list says disabled, then how:\n%s", r)
	}
	for name, want := range map[string]string{
		"repo":   "mcpdeck: server repo is rejected by you.\n",
		"mine":   "mcpdeck: server mine is disabled by you (enable it to connect).\n",
		"banned": "mcpdeck: server banned is blocked by policy rule ",
	} {
		if r := e.Fails(1, "call", name, "review", "{}"); !strings.HasPrefix(r.Stderr, want) {
			t.Errorf("call on %s: stderr %q, want %q…", name, r.Stderr, want)
		}
	}
}
