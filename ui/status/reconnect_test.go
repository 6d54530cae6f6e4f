package status

import (
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
)

// TestReconnectedSaysTheOutcome: the status line after r names the
// outcome: connected, or failed with why, and the next attempt a failed
// retry-now left scheduled.
func TestReconnectedSaysTheOutcome(t *testing.T) {
	refused := "connection refused at 127.0.0.1:9: is the server running?"
	at := time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)
	for _, tc := range []struct {
		s      engine.ServerSnapshot
		want   string
		failed bool
	}{
		{engine.ServerSnapshot{Name: "web", State: model.StateConnected}, "reconnected web", false},
		{engine.ServerSnapshot{Name: "web", State: model.StateFailed, Reason: model.Reason{Kind: model.ReasonFailed, Error: refused}}, "reconnect web failed: " + refused, true},
		{
			engine.ServerSnapshot{Name: "web", State: model.StateFailed, Reason: model.Reason{Kind: model.ReasonGaveUp, MaxAttempts: 5, Error: refused}},
			"reconnect web failed: gave up after 5 reconnect attempts: " + refused, true,
		},
		{
			engine.ServerSnapshot{Name: "web", State: model.StatePending, Reason: model.Reason{Kind: model.ReasonRetryScheduled, Attempt: 4, MaxAttempts: 5, At: at, Error: refused}},
			"reconnect web failed: " + refused + "; next attempt 4/5 at 15:04:05", true,
		},
		{
			engine.ServerSnapshot{Name: "web", State: model.StateNeedsAuth, Reason: model.Reason{Kind: model.ReasonAuthNeeded, Error: "the server needs you to log in (HTTP 401)"}},
			"reconnect web failed: the server needs you to log in (HTTP 401)", true,
		},
	} {
		got, failed := Reconnected(&tc.s)
		if got != tc.want || failed != tc.failed {
			t.Errorf("%s/%s: %q (failed %v), want %q (%v)", tc.s.State, tc.s.Reason.Kind, got, failed, tc.want, tc.failed)
		}
	}
}
