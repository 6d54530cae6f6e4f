package status

import (
	"fmt"
	"strings"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
)

// Outcome is what a one-shot CLI command makes of a server: the engine
// keeps retrying, but a health check reports the first result.
type Outcome int

// The outcomes.
const (
	OutcomePending   Outcome = iota // still connecting
	OutcomeConnected                // ✓
	OutcomeFailed                   // ✗ (includes "failed, retrying")
	OutcomeNeedsAuth                // !
	OutcomeDisabled                 // ○ disabled, rejected or blocked by policy
	OutcomeApproval                 // … project server awaiting approval
	numOutcomes
)

// OutcomeOf classifies s for the CLI.
func OutcomeOf(s *engine.ServerSnapshot) Outcome {
	switch s.State {
	case model.StateConnected:
		return OutcomeConnected
	case model.StateFailed:
		return OutcomeFailed
	case model.StateNeedsAuth:
		return OutcomeNeedsAuth
	case model.StateDisabled:
		return OutcomeDisabled
	case model.StatePending:
	}
	switch s.Reason.Kind {
	case model.ReasonAwaitingApproval:
		return OutcomeApproval
	case model.ReasonRetryScheduled: // the first attempt failed and a retry waits
		return OutcomeFailed
	default:
		return OutcomePending
	}
}

// outcomes is the one home of each outcome's mark and words, one entry
// per outcome (TestEveryOutcomeHasALook).
var outcomes = [numOutcomes]struct{ glyph, word string }{
	OutcomePending:   {"…", "pending"},
	OutcomeConnected: {"✓", "connected"},
	OutcomeFailed:    {"✗", "failed"},
	OutcomeNeedsAuth: {"!", "needs auth"},
	OutcomeDisabled:  {"○", "disabled"},
	OutcomeApproval:  {"…", "pending approval"},
}

// Glyph is the outcome's mark.
func (o Outcome) Glyph() string { return outcomes[o].glyph }

// Mark is a server's mark in `mcp list`: its outcome's, except that a
// server off says how, with the TUI's marks (○ disabled, ⊘ blocked by
// policy, ⊖ rejected), not one ○ for all three.
func Mark(s *engine.ServerSnapshot) string {
	if o := OutcomeOf(s); o != OutcomeDisabled {
		return o.Glyph()
	}
	if k := KindOf(s); k == Blocked || k == Rejected {
		return k.Glyph()
	}
	return OutcomeDisabled.Glyph()
}

// Word is the outcome in words.
func (o Outcome) Word() string { return outcomes[o].word }

// Reason is the one-line why for a server that is not connected, for the
// CLI: the failure's first line (with the retry under way), else the first
// standing reason.
func Reason(s *engine.ServerSnapshot) string {
	if f := Failure(s); f != "" && s.State != model.StateConnected {
		r, _, _ := strings.Cut(f, "\n")
		if s.State == model.StatePending && s.Reason.Attempt > 0 {
			r += fmt.Sprintf(" (retrying, attempt %d/%d)", s.Reason.Attempt, s.Reason.MaxAttempts)
		}
		return r
	}
	if s.State == model.StatePending && len(s.Blockers) == 0 {
		return "" // connecting: nothing to explain yet
	}
	if lines := Why(s); len(lines) > 0 {
		return trimStop(lines[0].Text)
	}
	return ""
}

// Off is how the CLI says a server that does not run because of a person
// or a policy is off: its standing reason, which names how ("disabled by
// you (enable it to connect)", "rejected by you", "blocked by policy rule
// R"), so that no "disabled:" comes before a "Rejected by you"; else the
// outcome's word.
func Off(s *engine.ServerSnapshot) string {
	if r := Reason(s); r != "" {
		return lowerFirst(r)
	}
	return OutcomeDisabled.Word()
}

func trimStop(s string) string {
	if n := len(s); n > 0 && s[n-1] == '.' {
		return s[:n-1]
	}
	return s
}
