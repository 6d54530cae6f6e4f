package serve

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/engine"
)

// countedAnswers is an agent's elicitation handler that accepts every
// question and counts them, and how many it held at once (peak).
type countedAnswers struct{ n, now, peak *atomic.Int64 }

func (c countedAnswers) Elicit(context.Context, mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	c.n.Add(1)
	held := c.now.Add(1)
	defer c.now.Add(-1)
	for p := c.peak.Load(); held > p && !c.peak.CompareAndSwap(p, held); p = c.peak.Load() {
	}
	res := &mcp.ElicitationResult{}
	res.Action = mcp.ElicitationResponseActionAccept
	res.Content = map[string]any{"answer": "yes"}
	return res, nil
}

// TestRelayedFloodIsBounded: a server on 2026-07-28 asks fifty questions
// in one input-required round during an agent's call. The relay puts at
// most engine.MaxPendingAsks of them to the agent; the rest are declined,
// the call ends with a sentence saying why, and serve's log tells of the
// burst once.
func TestRelayedFloodIsBounded(t *testing.T) {
	r := newRig(t, map[string]any{"fa": fault([]string{"-ask", "-modern"}, nil)}, Options{}, nil)
	var asked, now, peak atomic.Int64
	a := r.modernAgent(client.WithElicitationHandler(countedAnswers{&asked, &now, &peak}))
	got, isErr := a.call(t, "fa__ask_many", map[string]any{"count": 50})
	if !isErr || !strings.Contains(got, "the server asked for more input at once than mcpdeck lets wait (4 requests per server)") {
		t.Errorf("fa__ask_many = %q (error %v), want the call stopped for too many questions", got, isErr)
	}
	// At most MaxPendingAsks wait at once; one answered frees its place,
	// so a fast agent may be asked a few more, never all fifty.
	if n, p := asked.Load(), peak.Load(); p > engine.MaxPendingAsks || n >= 50 {
		t.Errorf("the agent was asked %d questions, at most %d at once; want at most %d at once, not all", n, p, engine.MaxPendingAsks)
	}
	r.waitFor("the burst in the log", func(*Gateway) bool {
		return strings.Contains(r.log.String(), "mcpdeck serve: server fa sent ")
	})
	if n := strings.Count(r.log.String(), "requests at once"); n != 1 {
		t.Errorf("the log tells of the burst %d times, want once:\n%s", n, r.log)
	}
}
