package clicore

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
	if !strings.HasPrefix(r.Stdout, "… repo: ") || !strings.Contains(r.Stdout, "pending approval") ||
		!strings.Contains(r.Stdout, "(run: mcpdeck mcp approve repo)") {
		t.Errorf("unapproved project server: %s", r)
	}
	r = e.Fails(1, "call", "repo", "review", `{}`)
	if !strings.Contains(r.Stderr, "awaiting approval") {
		t.Errorf("call on an unapproved server: %s", r)
	}
	e.OK("mcp", "approve", "repo")
	r = e.OK("mcp", "list")
	if !strings.HasPrefix(r.Stdout, "✓ repo: ") {
		t.Errorf("approved project server: %s", r)
	}
}
