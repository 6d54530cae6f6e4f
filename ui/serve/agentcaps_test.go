package serve

import (
	"encoding/json"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// TestServerIsToldTheAgentsCapabilities: a server on 2026-07-28 reads the
// client's capabilities from each request; through serve it is told the
// agent's (elicitation and sampling as the agent declared them), with
// roots (serve answers them) and elicitation only when serve answers it
// itself (--elicit), whether the call is relayed or not.
func TestServerIsToldTheAgentsCapabilities(t *testing.T) {
	declared := func(a *agent) mcp.ClientCapabilities {
		t.Helper()
		got, isErr := a.call(t, "fa__caps", nil)
		var caps mcp.ClientCapabilities
		if err := json.Unmarshal([]byte(got), &caps); isErr || err != nil {
			t.Fatalf("fa__caps = %q (error %v): %v", got, isErr, err)
		}
		return caps
	}
	r := newRig(t, map[string]any{"fa": fault([]string{"-ask", "-modern"}, nil)}, Options{}, nil)
	sampler := r.modernAgent(agentModel(make(chan mcp.CreateMessageParams, 1)))
	if c := declared(sampler); c.Elicitation != nil || c.Sampling == nil || c.Roots == nil {
		t.Errorf("an agent declaring sampling: the server was told %+v, want sampling and roots, no elicitation", c)
	}
	if c := declared(r.modernAgent()); c.Elicitation != nil || c.Roots == nil {
		t.Errorf("an agent declaring nothing: the server was told %+v, want roots, no elicitation", c)
	}
	f := newFormAnswers(false)
	if c := declared(r.modernAgent(client.WithElicitationHandler(f))); c.Elicitation == nil || c.Elicitation.URL != nil {
		t.Errorf("an agent declaring form elicitation: the server was told %+v, want form elicitation only", c)
	}

	headless := newRig(t, map[string]any{"fa": fault([]string{"-ask", "-modern"}, nil)}, Options{AnswersElicitation: true}, nil)
	if c := declared(headless.modernAgent()); c.Elicitation == nil {
		t.Errorf("serve answering elicitation itself: the server was told %+v, want elicitation", c)
	}
	r.waitSettled()
	headless.waitSettled()
}
