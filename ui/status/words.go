package status

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
)

// Hints are the TUI's keys for the actions a status line suggests, from its
// key map (so a remapped key shows as remapped). The zero value, used by
// the CLI, suggests no keys.
type Hints struct {
	Approve, Reject, Authenticate, Retry, Stop, Enable string
}

// hint is " · <key> <what>", or "" without a key.
func hint(key, what string) string {
	if key == "" {
		return ""
	}
	return " · " + key + " " + what
}

// Word is the state in words, saying what the bare state would hide: an
// unapproved project server is "pending" for the engine but waits for the
// person; a blocked one is "disabled" by policy, not by you; a rejected
// one was turned down by the person.
func Word(s *engine.ServerSnapshot) string {
	k := KindOf(s)
	if k == Awaiting && s.Approval.Status == model.ApprovalChanged {
		return "changed since approval"
	}
	return k.look().word
}

// WordNow is Word with the live countdown of a scheduled retry.
func WordNow(s *engine.ServerSnapshot, now time.Time) string {
	if KindOf(s) != Pending {
		return Word(s)
	}
	return Progress(s, now, Hints{})
}

// Progress is what a pending server is doing: "connecting…", or
// "attempt 2/5 · retry in 7s" (with the retry-now and stop keys when h
// has them).
func Progress(s *engine.ServerSnapshot, now time.Time, h Hints) string {
	r := s.Reason
	if r.Attempt == 0 {
		return "connecting…"
	}
	maxA := r.MaxAttempts
	if maxA == 0 {
		maxA = 5
	}
	t := fmt.Sprintf("attempt %d/%d", r.Attempt, maxA)
	if r.Kind != model.ReasonRetryScheduled || r.At.IsZero() {
		return t + " · connecting…"
	}
	secs := int(math.Ceil(r.At.Sub(now).Seconds()))
	if secs <= 0 {
		return t + " · retrying…"
	}
	return fmt.Sprintf("%s · retry in %ds", t, secs) + hint(h.Retry, "retry now") + hint(h.Stop, "stop")
}

// Row is the short text after a server's name in the list, and its tone.
func Row(s *engine.ServerSnapshot, now time.Time, h Hints) (string, Tone) {
	switch KindOf(s) {
	case Awaiting:
		return Word(s) + hint(h.Approve, "approve") + hint(h.Reject, "reject"), ToneWarn
	case Connected:
		if s.LogErrors > 0 { // the server logged errors: worth a look at its Logs tab
			return Counts(s) + " · ⚠ " + Plural(s.LogErrors, "error") + " logged", ToneWarn
		}
		return Counts(s), ToneText
	case Pending:
		return Progress(s, now, h), ToneWarn
	case Failed:
		f, _, _ := strings.Cut(Failure(s), "\n")
		if f == "" {
			f = "failed"
		}
		return f, ToneBad
	case NeedsAuth:
		if s.AuthURL != "" {
			return "signing in… finish in your browser", ToneAuth
		}
		return "needs authentication" + hint(h.Authenticate, "to sign in"), ToneAuth
	case Blocked:
		return "blocked by policy: " + s.Policy.Rule, ToneOff
	case Rejected:
		return Word(s) + hint(h.Approve, "approve"), ToneOff
	default: // the words below
	}
	// disabled, and any kind without words of its own: why, else its word
	if lines := Why(s); len(lines) > 0 {
		return lines[0].Text, KindOf(s).Tone()
	}
	return Word(s), KindOf(s).Tone()
}

// Counts is "3 tools · 7 resources · 2 templates · 1 prompt": every place
// that counts a server's lists says it this way (templates only when there
// are some).
func Counts(s *engine.ServerSnapshot) string {
	out := Plural(len(s.Tools), "tool") + " · " + Plural(len(s.Resources), "resource")
	if n := len(s.Templates); n > 0 {
		out += " · " + Plural(n, "template")
	}
	return out + " · " + Plural(len(s.Prompts), "prompt")
}

// Plural is "1 tool", "2 tools".
func Plural(n int, one string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %ss", n, one)
}
