package serve

import (
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"

	"github.com/mcpdeck/mcpdeck/engine"
)

// TestModernAgent: an agent on protocol 2026-07-28 (stateless requests,
// server/discover instead of initialize) lists and calls through the
// gateway over HTTP. That protocol has no server-to-client requests: a
// server's elicitation during a call reaches the agent as an input-required
// answer to its tools/call, and the retry carries the agent's answer to
// the waiting call, whose result is built from it. An agent on 2026-07-28
// that declared no elicitation gets the headless answer (here
// accept-defaults) instead.
func TestModernAgent(t *testing.T) {
	r := newRig(t, map[string]any{"fa": fault(nil, nil)}, Options{AnswersElicitation: true}, func(eo *engine.Options) {
		eo.Elicit, _ = engine.ElicitPolicy("accept-defaults")
	})
	h := elicitAnswer{asked: make(chan string, 1)}
	a := r.modernAgent(client.WithElicitationHandler(h))
	if names := a.toolNames(t); !slices.Contains(names, "fa__echo") {
		t.Errorf("tools = %v", names)
	}
	if got, isErr := a.call(t, "fa__echo", map[string]any{"text": "modern"}); isErr || got != "modern" {
		t.Errorf("fa__echo = %q (error %v)", got, isErr)
	}
	agentAnswersElicit(t, a, h)
	r.waitSettled()

	plain := r.modernAgent()
	if got, _ := plain.call(t, "fa__elicit", nil); !strings.Contains(got, "Ada") {
		t.Errorf("fa__elicit without the capability = %q, want the headless default Ada", got)
	}
}
