package serve

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// parkedRelay is a relay for pending's tests: only what pending reads.
func parkedRelay(agent string, key requestKey) *relay {
	ctx, cancel := context.WithCancelCause(context.Background())
	return &relay{agent: agent, key: key, ctx: ctx, cancel: cancel}
}

// TestPendingBoundsAndExpiry: at most max calls wait; each under its own
// unguessable state, taken once, only by its agent and for its request; a
// call not taken within the TTL is cancelled then (not before) with the
// reason; closing cancels every waiting call.
func TestPendingBoundsAndExpiry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tool := requestKey{mcp.MethodToolsCall, "fa__elicit"}
		p := newPending(pendingTTL, 2)
		a, b := parkedRelay("agent", tool), parkedRelay("agent", tool)
		sa, err := p.park(a)
		if err != nil {
			t.Fatal(err)
		}
		sb, err := p.park(b)
		if err != nil {
			t.Fatal(err)
		}
		if sa == sb || len(sa) < 26 {
			t.Errorf("states %q and %q", sa, sb)
		}
		if _, err := p.park(parkedRelay("agent", tool)); !errors.Is(err, ErrTooManyWaiting) {
			t.Errorf("a third call: %v", err)
		}

		if _, err := p.take(sa, "another agent", tool); !errors.Is(err, ErrUnknownRequestState) {
			t.Errorf("another agent's take: %v", err)
		}
		if _, err := p.take(sa, "agent", requestKey{mcp.MethodPromptsGet, "fa__elicit"}); !errors.Is(err, ErrOtherRequestState) {
			t.Errorf("a take for another request: %v", err)
		}
		if got, err := p.take(sa, "agent", tool); err != nil || got != a {
			t.Fatalf("take = %v, %v", got, err)
		}
		if _, err := p.take(sa, "agent", tool); !errors.Is(err, ErrUnknownRequestState) {
			t.Errorf("a second take: %v", err)
		}

		time.Sleep(pendingTTL - time.Nanosecond)
		synctest.Wait()
		if b.ctx.Err() != nil || a.ctx.Err() != nil {
			t.Fatal("cancelled before its time")
		}
		time.Sleep(time.Nanosecond)
		synctest.Wait()
		if cause := context.Cause(b.ctx); !errors.Is(cause, errAbandoned) || !strings.Contains(cause.Error(), "within 10m0s") {
			t.Errorf("the expired call's cause: %v", cause)
		}
		if a.ctx.Err() != nil || p.count() != 0 {
			t.Errorf("the taken call was cancelled (%v) or something still waits (%d)", a.ctx.Err(), p.count())
		}

		c := parkedRelay("agent", tool)
		if _, err := p.park(c); err != nil {
			t.Fatal(err)
		}
		p.close()
		if c.ctx.Err() == nil {
			t.Error("closing left a call waiting")
		}
		if _, err := p.park(parkedRelay("agent", tool)); err == nil {
			t.Error("parked after close")
		}
	})
}

// count is how many calls wait.
func (p *pending) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.byState)
}

// TestMakeRoomAbandonsTheOldestOfAServer: with one server's waiting calls
// holding more than keep questions, the oldest are abandoned (their states then unknown,
// their engine calls cancelled with the reason); other servers' calls
// and the newer ones stay.
func TestMakeRoomAbandonsTheOldestOfAServer(t *testing.T) {
	tool := requestKey{mcp.MethodToolsCall, "elicit"}
	p := newPending(pendingTTL, maxPending)
	var states []string
	var relays []*relay
	for _, srv := range []string{"a", "a", "b", "a", "a"} {
		r := parkedRelay("agent", tool)
		r.server = srv
		r.holding.Store(1)
		s, err := p.park(r)
		if err != nil {
			t.Fatal(err)
		}
		states, relays = append(states, s), append(relays, r)
	}
	out := p.makeRoom("a", 3)
	if len(out) != 1 || out[0] != relays[0] {
		t.Fatalf("makeRoom abandoned %v, want the first call of a", out)
	}
	if cause := context.Cause(relays[0].ctx); !errors.Is(cause, errAbandoned) || !strings.Contains(cause.Error(), "a newer call to a needed its place") {
		t.Errorf("the oldest call's cause: %v", cause)
	}
	if _, err := p.take(states[0], "agent", tool); !errors.Is(err, ErrUnknownRequestState) {
		t.Errorf("the abandoned call's state: %v", err)
	}
	for i := 1; i < len(relays); i++ {
		if relays[i].ctx.Err() != nil {
			t.Errorf("call %d (%s) was cancelled", i, relays[i].server)
		}
	}
	if out := p.makeRoom("a", 3); len(out) != 0 {
		t.Errorf("a second makeRoom abandoned %d", len(out))
	}
}
