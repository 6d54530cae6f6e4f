package status

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
)

// Why explains, one sentence each, why s is not connected: every standing
// reason of its definition (Blockers, most decisive first), then what its
// state adds (needs sign-in, the last crash, the failure). A sentence may
// carry a diff after a newline (an approval asked again). One fact is said
// once: a failed start of a command that is not found is that blocker, not
// a second sentence. nil for a connected server.
func Why(s *engine.ServerSnapshot) []string {
	if s.State == model.StateConnected {
		return nil
	}
	var out []string
	commandMissing := false
	for _, b := range s.Blockers {
		out = append(out, blocker(s, b))
		commandMissing = commandMissing || b.Kind == model.ReasonCommandNotFound
	}
	switch s.State {
	case model.StateNeedsAuth:
		out = append(out, "Needs authentication: run authenticate for this server.")
	case model.StateFailed, model.StatePending:
		if s.ExitCode != nil {
			out = append(out, fmt.Sprintf("Last crash: exited with code %d.", *s.ExitCode))
		}
		if f := Failure(s); s.State == model.StateFailed && f != "" && !(commandMissing && s.Reason.Kind == model.ReasonFailed) {
			out = append(out, Sentence(f))
		}
	case model.StateConnected, model.StateDisabled:
	}
	if len(out) == 0 && s.State == model.StatePending {
		out = append(out, "Still connecting.")
	}
	return out
}

// blocker words one standing reason of s's definition.
func blocker(s *engine.ServerSnapshot, b model.Reason) string {
	switch b.Kind {
	case model.ReasonBlockedByPolicy:
		if b.Rule != "" {
			return fmt.Sprintf("Blocked by policy rule %s.", b.Rule)
		}
		return "Blocked by managed policy."
	case model.ReasonDisabledByYou:
		return "Disabled by you (enable it to connect)."
	case model.ReasonAwaitingApproval:
		if !b.Changed {
			return "Awaiting your approval: this server comes from the project's .mcp.json."
		}
		msg := "Awaiting your approval again: the definition changed since you approved it."
		if s.Approval.Diff != "" {
			msg += "\n" + s.Approval.Diff
		}
		return msg
	case model.ReasonRejectedByYou:
		return "Rejected by you."
	case model.ReasonConfigProblem:
		if b.Problem != nil {
			return Sentence(b.Problem.Error())
		}
		return Sentence(b.Error)
	case model.ReasonCommandNotFound:
		if b.Missing {
			return fmt.Sprintf("Command %s does not exist.", b.Command)
		}
		return fmt.Sprintf("Command %s not found on PATH.", b.Command)
	case model.ReasonNone, model.ReasonConnecting, model.ReasonRetryScheduled, model.ReasonCrashed, model.ReasonCrashLoop,
		model.ReasonGaveUp, model.ReasonRetryCancelled, model.ReasonAuthNeeded, model.ReasonTooLarge, model.ReasonTimedOut, model.ReasonFailed:
	}
	return Sentence(orDefault(b.Error, string(b.Kind)))
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
