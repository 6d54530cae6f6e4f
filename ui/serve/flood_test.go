package serve

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
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
// in one input-required round during an agent's call: the round is one
// question with several fields, relayed whole and answered. A round of
// more than the engine's bound (64 inputs) ends the call with a sentence
// saying why, before the agent is asked anything.
func TestRelayedFloodIsBounded(t *testing.T) {
	r := newRig(t, map[string]any{"fa": fault([]string{"-ask", "-modern"}, nil)}, Options{}, nil)
	var asked, now, peak atomic.Int64
	a := r.modernAgent(client.WithElicitationHandler(countedAnswers{&asked, &now, &peak}))
	if got, isErr := a.call(t, "fa__ask_many", map[string]any{"count": 50}); isErr || got != "50 answers" {
		t.Errorf("fa__ask_many of 50 = %q (error %v), want 50 answers", got, isErr)
	}
	if n := asked.Load(); n != 50 {
		t.Errorf("the agent was asked %d questions of the round of 50", n)
	}
	got, isErr := a.call(t, "fa__ask_many", map[string]any{"count": 100})
	if !isErr || !strings.Contains(got, "the server asked for 100 inputs") {
		t.Errorf("fa__ask_many of 100 = %q (error %v), want the call stopped for too many inputs", got, isErr)
	}
	if n := asked.Load(); n != 50 {
		t.Errorf("the agent was asked %d questions of the refused round", n-50)
	}
}
