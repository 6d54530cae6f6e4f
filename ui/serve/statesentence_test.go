package serve

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/transports"
)

// refusing opens servers through the real factory until refuse is set:
// a server that cannot be started again, as when its program was removed.
type refusing struct {
	inner  transports.Factory
	refuse atomic.Bool
}

func (f *refusing) Open(ctx context.Context, name string, cfg model.ServerConfig, opts transports.Options) (*transports.Conn, error) {
	if f.refuse.Load() {
		return nil, errors.New("refused by the test")
	}
	return f.inner.Open(ctx, name, cfg, opts)
}

// TestUnavailableServerSaysWhy: after its server died, a tool stays offered
// and a call answers at once with the server's state in words (reconnecting
// with its attempt, then failed); a call to a failed server asks mcpdeck to
// connect it again, and once it is back calls work.
func TestUnavailableServerSaysWhy(t *testing.T) {
	f := &refusing{inner: transports.NewFactory()}
	r := newRig(t, map[string]any{"fa": fault(nil, nil)}, Options{}, func(eo *engine.Options) {
		eo.Factory = f
		eo.Backoff = engine.Backoff{MaxAttempts: 2, Base: time.Hour, Cap: time.Hour}
	})
	a := r.httpAgent()
	if !slices.Contains(a.toolNames(t), "fa__echo") {
		t.Fatal("fa__echo is not offered")
	}
	f.refuse.Store(true)
	if _, isErr := a.call(t, "fa__crash", nil); !isErr {
		t.Error("a call whose server died mid-call did not fail")
	}
	r.waitFor("fa reconnecting", func(g *Gateway) bool { return state(g, "fa") == model.StatePending })
	got, isErr := a.call(t, "fa__echo", map[string]any{"text": "hi"})
	if !isErr || !strings.Contains(got, "server fa is not connected (attempt 1/2 · retry in") {
		t.Errorf("call while reconnecting = %q (error %v)", got, isErr)
	}
	if !slices.Contains(a.toolNames(t), "fa__echo") {
		t.Error("a reconnecting server's tools left the list")
	}

	if err := r.gw.eng.CancelReconnect(t.Context(), "fa"); err != nil {
		t.Fatal(err)
	}
	r.waitFor("fa failed", func(g *Gateway) bool { return state(g, "fa") == model.StateFailed })
	f.refuse.Store(false)
	got, isErr = a.call(t, "fa__echo", map[string]any{"text": "hi"})
	if !isErr || !strings.Contains(got, "server fa failed: Reconnect cancelled; mcpdeck is connecting it again, try again shortly") {
		t.Errorf("call to a failed server = %q (error %v)", got, isErr)
	}
	r.waitFor("fa connected again", func(g *Gateway) bool { return state(g, "fa") == model.StateConnected })
	if got, isErr := a.call(t, "fa__echo", map[string]any{"text": "hi"}); isErr || got != "hi" {
		t.Errorf("call after reconnecting = %q (error %v)", got, isErr)
	}
}

// TestCallLostTellsTheAgent: a call during which its server dies answers
// the agent that the connection was lost during the call, why, and that
// mcpdeck is reconnecting (with the attempt).
func TestCallLostTellsTheAgent(t *testing.T) {
	r := newRig(t, map[string]any{"fa": fault(nil, nil)}, Options{}, func(eo *engine.Options) {
		eo.Backoff = engine.Backoff{MaxAttempts: 5, Base: time.Hour, Cap: time.Hour}
	})
	a := r.httpAgent()
	got, isErr := a.call(t, "fa__crash", nil)
	want := "calling crash on fa: the connection was lost during the call (the server process exited with code 3: crashing with code 3); reconnecting (attempt 1/5)"
	if !isErr || got != want {
		t.Errorf("call = %q (error %v)\nwant %q", got, isErr, want)
	}
}

// TestStateSentences: the words of every state a call can meet, from
// ui/status, with what to run where there is something to run.
func TestStateSentences(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tc := range []struct {
		s    engine.ServerSnapshot
		want string
	}{
		{
			engine.ServerSnapshot{Name: "api", State: model.StateNeedsAuth, Reason: model.Reason{Kind: model.ReasonAuthNeeded, Cached: true}},
			"server api needs authentication (sign in with: mcpdeck auth api)",
		},
		{
			engine.ServerSnapshot{Name: "gh", State: model.StatePending, Reason: model.Reason{Kind: model.ReasonRetryScheduled, Attempt: 2, MaxAttempts: 5, At: now.Add(7 * time.Second), Error: "connection refused"}},
			"server gh is not connected (attempt 2/5 · retry in 7s): connection refused",
		},
		{
			engine.ServerSnapshot{Name: "p", State: model.StatePending, Approval: model.Approval{Status: model.ApprovalPending}, Reason: model.Reason{Kind: model.ReasonAwaitingApproval}},
			"server p is awaiting approval (approve it with: mcpdeck mcp approve p)",
		},
		{
			engine.ServerSnapshot{Name: "r", State: model.StateDisabled, Approval: model.Approval{Status: model.ApprovalRejected}, Reason: model.Reason{Kind: model.ReasonRejectedByYou}, Blockers: []model.Reason{{Kind: model.ReasonRejectedByYou}}},
			"server r is rejected by you (approve it with: mcpdeck mcp approve r)",
		},
	} {
		if got := stateSentenceAt(&tc.s, now); got != tc.want {
			t.Errorf("got  %q\nwant %q", got, tc.want)
		}
	}
}
