package status

import (
	"testing"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
)

// TestOutcomeOf: the CLI's outcome follows the engine's state and reason,
// as the engine fills them (engine/step.go).
func TestOutcomeOf(t *testing.T) {
	ok := model.PolicyDecision{Allowed: true}
	for _, c := range []struct {
		name string
		srv  engine.ServerSnapshot
		want Outcome
	}{
		{"connecting", engine.ServerSnapshot{State: model.StatePending, Reason: model.Reason{Kind: model.ReasonConnecting}, Enabled: true, Policy: ok}, OutcomePending},
		{"connected", engine.ServerSnapshot{State: model.StateConnected, Enabled: true, Policy: ok}, OutcomeConnected},
		{"failed", engine.ServerSnapshot{State: model.StateFailed, Reason: model.Reason{Kind: model.ReasonFailed, Error: "boom"}}, OutcomeFailed},
		{"first attempt failed, retrying", engine.ServerSnapshot{State: model.StatePending, Reason: model.Reason{Kind: model.ReasonRetryScheduled, Attempt: 1, MaxAttempts: 5, Error: "reset"}}, OutcomeFailed},
		{"needs auth", engine.ServerSnapshot{State: model.StateNeedsAuth, Reason: model.Reason{Kind: model.ReasonAuthNeeded}}, OutcomeNeedsAuth},
		{"disabled", engine.ServerSnapshot{State: model.StateDisabled, Reason: model.Reason{Kind: model.ReasonDisabledByYou}}, OutcomeDisabled},
		{"blocked by policy", engine.ServerSnapshot{State: model.StateDisabled, Reason: model.Reason{Kind: model.ReasonBlockedByPolicy, Rule: "r"}}, OutcomeDisabled},
		{"awaiting approval", engine.ServerSnapshot{State: model.StatePending, Reason: model.Reason{Kind: model.ReasonAwaitingApproval}, Approval: model.Approval{Status: model.ApprovalPending}}, OutcomeApproval},
		{"changed since approval", engine.ServerSnapshot{State: model.StatePending, Reason: model.Reason{Kind: model.ReasonAwaitingApproval, Changed: true}, Approval: model.Approval{Status: model.ApprovalChanged}}, OutcomeApproval},
	} {
		if got := OutcomeOf(&c.srv); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got.Word(), c.want.Word())
		}
	}
}
