package status

import (
	"fmt"
	"time"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
)

// Move words one entry of a server's history from its structured Cause:
// "reconnect attempt 2/5 in 2.3s", "gave up after 5 attempts: …". An entry
// without a cause (recorded before causes existed) shows its log label.
func Move(t engine.Transition) string {
	c := t.Cause
	switch c.Kind {
	case model.ReasonNone:
		if t.Reason == "" && t.To == model.StateConnected {
			return "connected"
		}
		return t.Reason
	case model.ReasonConnecting:
		if c.Attempt == 0 {
			return "connecting"
		}
		return fmt.Sprintf("reconnect attempt %d/%d", c.Attempt, c.MaxAttempts)
	case model.ReasonRetryScheduled:
		return fmt.Sprintf("reconnect attempt %d/%d in %s", c.Attempt, c.MaxAttempts, c.At.Sub(t.At).Round(100*time.Millisecond))
	case model.ReasonAwaitingApproval, model.ReasonBlockedByPolicy, model.ReasonDisabledByYou,
		model.ReasonRejectedByYou, model.ReasonConfigProblem:
		return CannotRun(c, "", InTUI)
	case model.ReasonGaveUp:
		return fmt.Sprintf("gave up after %d reconnect attempts: %s", c.MaxAttempts, c.Error)
	case model.ReasonCrashLoop:
		return "crash loop: " + c.Error
	case model.ReasonRetryCancelled:
		return "reconnect cancelled"
	case model.ReasonAuthNeeded:
		if c.Cached {
			return "needs sign-in (remembered)"
		}
		return "needs sign-in"
	default: // the cause's error, else the reducer's label
	}
	if c.Error != "" {
		return c.Error
	}
	return t.Reason
}
