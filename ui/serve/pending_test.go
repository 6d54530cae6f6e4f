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
