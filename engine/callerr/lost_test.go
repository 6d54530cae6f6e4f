package callerr

import (
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
)

// TestConnectionLostSaysWhatNext: what the error says follows the state the
// loss left the server in.
func TestConnectionLostSaysWhatNext(t *testing.T) {
	for _, tc := range []struct {
		e    ConnectionLostError
		want string
	}{
		{
			ConnectionLostError{State: model.StatePending, Reason: model.Reason{Kind: model.ReasonRetryScheduled, Attempt: 2, MaxAttempts: 5}},
			"the connection was lost during the call; reconnecting (attempt 2/5)",
		},
		{ConnectionLostError{Cause: "gone", State: model.StatePending, Reason: model.Reason{Kind: model.ReasonConnecting}}, "the connection was lost during the call (gone); reconnecting"},
		{ConnectionLostError{State: model.StateConnected}, "the connection was lost during the call; it has reconnected since: try again"},
		{ConnectionLostError{State: model.StateNeedsAuth}, "the connection was lost during the call; it needs you to sign in again"},
		{
			ConnectionLostError{State: model.StateFailed, Reason: model.Reason{Kind: model.ReasonCrashLoop, Count: 3, Window: 10 * time.Second}},
			"the connection was lost during the call; not reconnecting: it stopped 3 times in a row within 10s of connecting",
		},
		{ConnectionLostError{State: model.StateFailed, Reason: model.Reason{Kind: model.ReasonTooLarge}}, "the connection was lost during the call; not reconnecting"},
	} {
		if got := tc.e.Error(); got != tc.want {
			t.Errorf("%s/%s: %q, want %q", tc.e.State, tc.e.Reason.Kind, got, tc.want)
		}
	}
}
