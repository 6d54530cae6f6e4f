package status

import (
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
)

// Line is one sentence of Why, with the diff that goes under it (an
// approval asked again because the definition changed).
type Line struct {
	Text string
	Diff string
}

// Why explains, one sentence each, why s is not connected: every standing
// reason of its definition (Blockers, most decisive first), then what its
// state adds (needs sign-in, the failure, the reconnect under way). One fact
// is said once: a failed start of a command that is not found is that
// blocker, not a second sentence, and the last crash is said apart only
// when no failure says it. nil for a connected server.
func Why(s *engine.ServerSnapshot) []Line {
	if s.State == model.StateConnected {
		return nil
	}
	var out []Line
	commandMissing := false
	for _, b := range s.Blockers {
		out = append(out, blocker(s, b))
		commandMissing = commandMissing || b.Kind == model.ReasonCommandNotFound
	}
	var failure []Line
	switch s.State {
	case model.StateNeedsAuth:
		out = append(out, Line{Text: "Needs authentication: run authenticate for this server."})
		if r := s.Reason; r.Kind == model.ReasonAuthNeeded && !r.Cached && r.Error != "" {
			out = append(out, Line{Text: Sentence(r.Error)})
		}
	case model.StateFailed:
		if f := Failure(s); f != "" && !saidByBlockers(s.Reason.Kind, commandMissing) {
			failure = []Line{{Text: Sentence(f)}}
		}
	case model.StatePending:
		failure = retrying(s)
	default: // the blockers said it
	}
	if s.ExitCode != nil && len(failure) == 0 && (s.State == model.StateFailed || s.State == model.StatePending) {
		out = append(out, Line{Text: fmt.Sprintf("Last crash: exited with code %d.", *s.ExitCode)})
	}
	out = append(out, failure...)
	if len(out) == 0 && s.State == model.StatePending {
		out = append(out, Line{Text: "Still connecting."})
	}
	return out
}

// BesidesApproval is Why's standing reasons for s but the approval itself:
// what would still stop it once the person approves it (its command not
// found on PATH, a ${VAR} it sends not set, policy), so the approval
// prompt can say so before the person decides.
func BesidesApproval(s *engine.ServerSnapshot) []Line {
	var out []Line
	for _, b := range s.Blockers {
		if b.Kind != model.ReasonAwaitingApproval && b.Kind != model.ReasonRejectedByYou {
			out = append(out, blocker(s, b))
		}
	}
	return out
}

// retrying words a pending server's reconnect: what failed last and when,
// and the attempt that is scheduled or under way. nil while it first
// connects or waits for approval.
func retrying(s *engine.ServerSnapshot) []Line {
	r := s.Reason
	if r.Attempt == 0 || (r.Kind != model.ReasonRetryScheduled && r.Kind != model.ReasonConnecting) {
		return nil
	}
	failed := fmt.Sprintf("Reconnect attempt %d/%d failed", r.Attempt-1, r.MaxAttempts)
	if r.Attempt == 1 {
		failed = "The connection was lost"
	}
	if n := len(s.History); n > 0 { // the move that scheduled this attempt
		failed += " at " + s.History[n-1].At.Format(time.TimeOnly)
	}
	if c := cause(s); c != "" {
		failed += ": " + c
	}
	next := fmt.Sprintf("Next attempt %d/%d at %s.", r.Attempt, r.MaxAttempts, r.At.Format(time.TimeOnly))
	if r.Kind == model.ReasonConnecting {
		next = fmt.Sprintf("Reconnecting now (attempt %d/%d).", r.Attempt, r.MaxAttempts)
	}
	return []Line{{Text: Sentence(failed)}, {Text: next}}
}

// blocker says one standing reason of s's definition as a sentence,
// with the diff of a definition that changed since its approval.
func blocker(s *engine.ServerSnapshot, b model.Reason) Line {
	l := Line{Text: Sentence(CannotRun(b, s.Name, InTUI))}
	if b.Kind == model.ReasonAwaitingApproval && b.Changed {
		l.Diff = s.Approval.Diff
	}
	return l
}

// Sentence makes s (an error text, usually lowercase and unpunctuated) read
// as a sentence: capital first letter, final full stop.
func Sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	s = string(unicode.ToUpper(r)) + s[n:]
	if !strings.ContainsRune(".!?", rune(s[len(s)-1])) {
		s += "."
	}
	return s
}

// saidByBlockers reports whether a failure of this kind is a blocker said
// already: a config problem is its first blocker, and a start that failed
// while the command is not found failed because of it.
func saidByBlockers(k model.ReasonKind, commandMissing bool) bool {
	return k == model.ReasonConfigProblem || (commandMissing && k == model.ReasonFailed)
}
