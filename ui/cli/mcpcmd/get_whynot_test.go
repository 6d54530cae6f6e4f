package mcpcmd

import (
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
)

// TestRunsLineNamesTheEnginesFirstBlocker: `mcp get`'s "Runs" line gives
// the reason the engine and the TUI put first (model.Server.Blockers):
// policy, then your own disable, then approval, then config problems.
func TestRunsLineNamesTheEnginesFirstBlocker(t *testing.T) {
	problem := []model.Problem{{Field: "env.A", Message: "${A} is not set"}}
	for i, tc := range []struct {
		srv  model.Server
		want string
	}{
		{model.Server{Name: "a", Enabled: true, Policy: model.PolicyDecision{Allowed: true}}, "yes"},
		{model.Server{Name: "a", Policy: model.PolicyDecision{Allowed: true}, Problems: problem}, "no: disabled by you (mcpdeck mcp enable a)"},
		{model.Server{Name: "a", Enabled: true, Problems: problem}, "no: blocked by managed policy"},
		{model.Server{Name: "a", Enabled: true, Policy: model.PolicyDecision{Allowed: true}, Approval: model.Approval{Status: model.ApprovalRejected}, Problems: problem}, "no: rejected by you (mcpdeck mcp approve a)"},
		{model.Server{Name: "a", Enabled: true, Policy: model.PolicyDecision{Allowed: true}, Problems: problem}, "no: field env.A: ${A} is not set"},
		// A repository names its servers: the command to paste runs no more
		// than the one word it names.
		{model.Server{Name: "x; touch pwned", Policy: model.PolicyDecision{Allowed: true}}, "no: disabled by you (mcpdeck mcp enable 'x; touch pwned')"},
		{model.Server{Name: "x\x1b]0;t\a", Enabled: true, Policy: model.PolicyDecision{Allowed: true}, Approval: model.Approval{Status: model.ApprovalPending}}, `no: awaiting your approval (mcpdeck mcp approve $'x\x1b]0;t\x07')`},
	} {
		if got := whyNot(tc.srv); got != tc.want {
			t.Errorf("case %d: %q, want %q", i, got, tc.want)
		}
	}
}
