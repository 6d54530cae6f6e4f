package serve

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestAgentGetsTheServersRoundWhole: a server on 2026-07-28 that asks an
// elicitation, a sampling request and roots/list in one input-required
// round reaches an agent on 2026-07-28 as that one round, under the
// server's own keys; the agent's answers, given under those keys, reach
// the server under them.
func TestAgentGetsTheServersRoundWhole(t *testing.T) {
	r := newRig(t, map[string]any{"fa": fault([]string{"-ask", "-modern"}, nil)}, Options{}, nil)
	a := &rawAgent{agent: r.modernAgent()}
	ctx := t.Context()
	res, err := a.round(ctx, t, mcp.MethodToolsCall, map[string]any{"name": "fa__ask_three"})
	if err != nil {
		t.Fatal(err)
	}
	ir := askRound(t, res)
	var keys []string
	for k := range ir.InputRequests {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if want := []string{"client_roots", "greeting", "user_name"}; !slices.Equal(keys, want) {
		t.Fatalf("the agent was asked %v in its first round, want the server's round %v", keys, want)
	}
	sampled := mcp.CreateMessageResult{Model: "agent-model", StopReason: "endTurn"}
	sampled.Role, sampled.Content = mcp.RoleAssistant, mcp.NewTextContent("hi")
	answers := mcp.InputResponses{
		"user_name": mcp.NewElicitationInputResponse(mcp.ElicitationResult{
			ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"name": "Ada"}},
		}),
		"greeting":     mcp.NewSamplingInputResponse(sampled),
		"client_roots": mcp.NewRootsInputResponse(mcp.ListRootsResult{Roots: []mcp.Root{{URI: agentRoot}}}),
	}
	res, err = a.round(ctx, t, mcp.MethodToolsCall, map[string]any{"name": "fa__ask_three", "requestState": ir.RequestState, "inputResponses": answers})
	if err != nil {
		t.Fatal(err)
	}
	var final mcp.CallToolResult
	want := "3 answers: user_name=Ada; greeting=hi; client_roots=" + agentRoot
	if err := json.Unmarshal(res, &final); err != nil || final.NeedsInput() || !strings.Contains(string(res), want) {
		t.Errorf("the result = %s (%v), want %q", res, err, want)
	}
	r.waitSettled()
}

// TestAnswersGivenBeforeTheQuestion: an agent on 2026-07-28 may send its
// answers with its first request, before the server asked; they reach the
// server with the engine's first request, which completes at once.
func TestAnswersGivenBeforeTheQuestion(t *testing.T) {
	r := newRig(t, map[string]any{"fa": fault([]string{"-ask", "-modern"}, nil)}, Options{}, nil)
	a := &rawAgent{agent: r.modernAgent()}
	answers := mcp.InputResponses{"user_name": mcp.NewElicitationInputResponse(mcp.ElicitationResult{
		ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"name": "Ada"}},
	})}
	res, err := a.round(t.Context(), t, mcp.MethodToolsCall, map[string]any{"name": "fa__ask_three", "inputResponses": answers})
	if err != nil {
		t.Fatal(err)
	}
	var final mcp.CallToolResult
	if err := json.Unmarshal(res, &final); err != nil || final.NeedsInput() || !strings.Contains(string(res), "1 answers: user_name=Ada") {
		t.Errorf("the result = %s (%v), want the server's answer to the one given", res, err)
	}
	r.waitSettled()
}
