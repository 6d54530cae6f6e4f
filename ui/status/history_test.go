package status

import (
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
)

func TestMoveWordsTheCause(t *testing.T) {
	at := time.Unix(100, 0)
	for _, tc := range []struct {
		t    engine.Transition
		want string
	}{
		{engine.Transition{To: model.StateConnected}, "connected"},
		{engine.Transition{At: at, To: model.StatePending, Cause: model.Reason{Kind: model.ReasonRetryScheduled, Attempt: 2, MaxAttempts: 5, At: at.Add(2300 * time.Millisecond)}}, "reconnect attempt 2/5 in 2.3s"},
		{
			engine.Transition{At: at, From: model.StateConnected, To: model.StatePending, Cause: model.Reason{
				Kind: model.ReasonRetryScheduled, Attempt: 1, MaxAttempts: 5, At: at.Add(time.Second),
				Error: "the server process was killed by signal SIGKILL: last stderr line\nanother",
			}},
			"the server process was killed by signal SIGKILL: last stderr line; reconnect attempt 1/5 in 1s",
		},
		{engine.Transition{To: model.StateFailed, Cause: model.Reason{Kind: model.ReasonGaveUp, MaxAttempts: 5, Error: "refused"}}, "gave up after 5 reconnect attempts: refused"},
		{engine.Transition{To: model.StateFailed, Cause: model.Reason{Kind: model.ReasonCrashed, Error: "exited with code 1"}}, "exited with code 1"},
		{engine.Transition{To: model.StateDisabled, Cause: model.Reason{Kind: model.ReasonBlockedByPolicy, Rule: "r"}}, "blocked by policy rule r"},
		{engine.Transition{To: model.StatePending, Reason: "old label"}, "old label"},
	} {
		if got := Move(tc.t); got != tc.want {
			t.Errorf("Move(%+v) = %q, want %q", tc.t.Cause, got, tc.want)
		}
	}
}
