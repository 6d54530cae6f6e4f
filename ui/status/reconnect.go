package status

import (
	"fmt"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
)

// Reconnected words the outcome of a reconnect the person asked for (the
// engine's ReconnectOutcome) for the status line, and whether it failed:
// "reconnected web", or "reconnect web failed: WHY", with the next attempt
// when a failed retry-now left one scheduled. The line stays until the next
// one, so the next attempt is a clock time, not a countdown.
func Reconnected(s *engine.ServerSnapshot) (string, bool) {
	if s.State == model.StateConnected {
		return "reconnected " + s.Name, false
	}
	line := "reconnect " + s.Name + " failed"
	if r := s.Reason; RetryWaits(s) {
		return fmt.Sprintf("%s: %s; next attempt %d/%d at %s", line, cause(s), r.Attempt, r.MaxAttempts, r.At.Format(time.TimeOnly)), true
	}
	if why := Reason(s); why != "" {
		line += ": " + lowerFirst(why)
	}
	return line, true
}

// lowerFirst puts a sentence that starts one of Failure's ("Gave up …")
// after a colon.
func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToLower(r)) + s[n:]
}

// RetryWaits reports whether a reconnect is scheduled: the TUI's r then
// runs it now, and the server is not counted as connecting meanwhile.
func RetryWaits(s *engine.ServerSnapshot) bool {
	return s.State == model.StatePending && s.Reason.Kind == model.ReasonRetryScheduled
}
