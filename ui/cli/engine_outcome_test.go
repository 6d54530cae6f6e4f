package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
)

func TestEngListLineIsOneSafeLine(t *testing.T) {
	srv := engine.ServerSnapshot{
		Name: "x", Target: "evil\x1b[2J", Transport: model.TransportStdio, State: model.StateFailed,
		Error: "boom\nsecond line\u202e", Policy: model.PolicyDecision{Allowed: true}, Enabled: true,
	}
	line := engListLine(srv)
	if strings.ContainsAny(line, "\n\x1b\u202e") || !strings.HasPrefix(line, "✗ x: ") || !strings.Contains(line, "boom") {
		t.Errorf("list line %q", line)
	}
}

func TestEngMCPListShowsPendingApproval(t *testing.T) {
	e := newCLIEnv(t)
	mcpJSON := `{"mcpServers":{"repo":{"command":"` + binary + `","args":["demo-server","reviewer"]}}}`
	if err := os.WriteFile(filepath.Join(e.proj, ".mcp.json"), []byte(mcpJSON), 0o644); err != nil {
		t.Fatal(err)
	}
	r := e.ok("mcp", "list")
	if !strings.HasPrefix(r.stdout, "… repo: ") || !strings.Contains(r.stdout, "pending approval") ||
		!strings.Contains(r.stdout, "(run: mcpdeck mcp approve repo)") {
		t.Errorf("unapproved project server: %s", r)
	}
	r = e.fails(1, "call", "repo", "review", `{}`)
	if !strings.Contains(r.stderr, "awaiting approval") {
		t.Errorf("call on an unapproved server: %s", r)
	}
	e.ok("mcp", "approve", "repo")
	r = e.ok("mcp", "list")
	if !strings.HasPrefix(r.stdout, "✓ repo: ") {
		t.Errorf("approved project server: %s", r)
	}
}
