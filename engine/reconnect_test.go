package engine

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
)

// TestReconnectOutcomeWaitsForTheAttempt: ReconnectOutcome answers once
// the attempt it asked for ended: failed with why, connected, or, for a
// retry-now that failed during a reconnect sequence, the next attempt
// scheduled with the fresh failure.
func TestReconnectOutcomeWaitsForTheAttempt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := newFakeNet()
		n.servers["s"] = demoServer
		n.fail["s"] = errors.New("connection refused")
		e := newTestEngine(t, n, stdioServer("s"))
		mustStart(t, e)
		if s := current(t, e, "s"); s.State != model.StateFailed {
			t.Fatalf("start: %s", s.State)
		}
		ctx := context.Background()
		s, err := e.ReconnectOutcome(ctx, "s")
		if err != nil || s.State != model.StateFailed || s.Error != "connection refused" || n.opened("s") != 2 {
			t.Fatalf("reconnect while refused: %s %q %v (opens %d)", s.State, s.Error, err, n.opened("s"))
		}
		n.set(func() { delete(n.fail, "s") })
		if s, err = e.ReconnectOutcome(ctx, "s"); err != nil || s.State != model.StateConnected {
			t.Fatalf("reconnect: %s %v", s.State, err)
		}

		time.Sleep(time.Minute) // long enough that the loss is no crash loop
		n.set(func() { n.fail["s"] = errors.New("connection refused") })
		n.last("s").kill(errors.New("gone"))
		if s := current(t, e, "s"); s.Reason.Kind != model.ReasonRetryScheduled || s.Reason.Attempt != 1 {
			t.Fatalf("after loss: %s %+v", s.State, s.Reason)
		}
		s, err = e.ReconnectOutcome(ctx, "s") // retry now
		r := s.Reason
		if err != nil || s.State != model.StatePending || r.Kind != model.ReasonRetryScheduled || r.Attempt != 2 || r.Error != "connection refused" {
			t.Fatalf("retry now while refused: %s %+v %v", s.State, r, err)
		}
		if _, err := e.ReconnectOutcome(ctx, "nope"); !errors.Is(err, ErrUnknownServer) {
			t.Errorf("unknown server: %v", err)
		}
	})
}
