package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
)

func TestEngOutcomeOf(t *testing.T) {
	ok := model.PolicyDecision{Allowed: true}
	cases := []struct {
		name string
		srv  engine.ServerSnapshot
		want engOutcome
	}{
		{"connecting", engine.ServerSnapshot{State: model.StatePending, Enabled: true, Policy: ok}, ocPending},
		{"connected", engine.ServerSnapshot{State: model.StateConnected, Enabled: true, Policy: ok}, ocConnected},
		{"failed", engine.ServerSnapshot{State: model.StateFailed, Enabled: true, Policy: ok}, ocFailed},
		{"first attempt failed, retrying", engine.ServerSnapshot{State: model.StatePending, Enabled: true, Policy: ok, Attempt: 1, Error: "reset"}, ocFailed},
		{"needs auth", engine.ServerSnapshot{State: model.StateNeedsAuth, Enabled: true, Policy: ok}, ocNeedsAuth},
		{"disabled", engine.ServerSnapshot{State: model.StateDisabled, Policy: ok}, ocDisabled},
		{"blocked by policy", engine.ServerSnapshot{State: model.StatePending, Enabled: true}, ocDisabled},
		{"awaiting approval", engine.ServerSnapshot{
			State: model.StatePending, Enabled: true, Policy: ok,
			Approval: model.Approval{Status: model.ApprovalPending},
		}, ocApproval},
		{"changed since approval", engine.ServerSnapshot{
			State: model.StatePending, Enabled: true, Policy: ok,
			Approval: model.Approval{Status: model.ApprovalChanged},
		}, ocApproval},
	}
	for _, c := range cases {
		if got := engOutcomeOf(c.srv); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got.word(), c.want.word())
		}
	}
}

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
