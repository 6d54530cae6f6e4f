package status

import (
	"fmt"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
)

// Failure is the sentence for what went wrong, built from the snapshot's
// Reason: the engine gives the cause alone (Reason.Error, and Error), and
// the kinds that add to it say so here. "" when nothing went wrong.
func Failure(s *engine.ServerSnapshot) string {
	r := s.Reason
	switch r.Kind {
	case model.ReasonGaveUp:
		return fmt.Sprintf("Gave up after %d reconnect attempts: %s", r.MaxAttempts, cause(s))
	case model.ReasonCrashLoop:
		return fmt.Sprintf("Crash loop: the server stopped within %s of connecting %d times in a row; not restarting (last: %s)",
			r.Window, r.Count, cause(s))
	case model.ReasonRetryCancelled:
		return "Reconnect cancelled."
	case model.ReasonTimedOut:
		return fmt.Sprintf("the server did not finish connecting within %s (raise MCP_TIMEOUT, in ms, for slow servers)", r.Limit)
	case model.ReasonAuthNeeded:
		if r.Cached {
			return "The server needs you to sign in."
		}
	default: // the cause says it all
	}
	return cause(s)
}

// cause is the failure's cause in words: the Reason's, else the snapshot's
// last error (a list that failed on a connected server, the previous
// attempt's error while the next one runs).
func cause(s *engine.ServerSnapshot) string {
	if s.Reason.Error != "" {
		return s.Reason.Error
	}
	return s.Error
}
