package serve

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
)

// downstreams are the two kinds of server a relayed question comes from:
// one on 2025-11-25 asks with its own elicitation/create or
// sampling/createMessage (on its connection, not the call), one on
// 2026-07-28 answers the engine's call "input required".
var downstreams = []struct {
	name string
	args []string
}{
	{"server on 2025-11-25", []string{"-ask"}},
	{"server on 2026-07-28", []string{"-ask", "-modern"}},
}

// formAnswers is an agent's elicitation handler: it accepts, with a value
// for every property the form asks for (from values), or declines when
// decline is set; it records every message it was shown.
type formAnswers struct {
	values  map[string]string
	decline bool
	asked   chan string
}

func newFormAnswers(decline bool) formAnswers {
	return formAnswers{values: map[string]string{"name": "Grace", "colour": "green"}, decline: decline, asked: make(chan string, 16)}
}

func (f formAnswers) Elicit(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	if req.Params.Mode == mcp.ElicitationModeURL {
		f.asked <- req.Params.Message + " <" + req.Params.URL + ">"
	} else {
		f.asked <- req.Params.Message
	}
	res := &mcp.ElicitationResult{}
	if f.decline {
		res.Action = mcp.ElicitationResponseActionDecline
		return res, nil
	}
	res.Action = mcp.ElicitationResponseActionAccept
	schema, _ := req.Params.RequestedSchema.(map[string]any)
	props, _ := schema["properties"].(map[string]any)
	content := map[string]any{}
	for p := range props {
		content[p] = f.values[p]
	}
	res.Content = content
	return res, nil
}

// messages are what the agent was shown so far.
func (f formAnswers) messages() []string {
	var out []string
	for {
		select {
		case m := <-f.asked:
			out = append(out, m)
		default:
			return out
		}
	}
}

// agentModel is an agent's sampling handler that replies as agent-model.
func agentModel(asked chan<- mcp.CreateMessageParams) client.ClientOption {
	return client.WithSamplingHandler(samplerFunc(func(_ context.Context, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
		asked <- req.CreateMessageParams
		res := &mcp.CreateMessageResult{Model: "agent-model", StopReason: "endTurn"}
		res.Role = mcp.RoleAssistant
		res.Content = mcp.NewTextContent("hello from the agent")
		return res, nil
	}))
}

// waitSettled waits until no call is in flight and none waits for its
// agent: every relayed engine call has ended.
func (r *rig) waitSettled() {
	r.t.Helper()
	r.waitFor("every call to end", func(g *Gateway) bool { return g.routes.inFlight() == 0 && g.asks.pending.count() == 0 })
}

// TestModernAgentAnswersThroughInputRequired: an agent on 2026-07-28 that
// declared elicitation answers a server's questions during a tools/call,
// a prompts/get and a resources/read, each through input-required rounds;
// the tool that asks twice takes two rounds in one call, and the result is
// built from both answers. Whichever protocol the server speaks, over HTTP
// and stdio.
func TestModernAgentAnswersThroughInputRequired(t *testing.T) {
	for _, d := range downstreams {
		for _, over := range []string{"http", "stdio"} {
			t.Run(d.name+"/"+over, func(t *testing.T) {
				r := newRig(t, map[string]any{"fa": fault(d.args, nil)}, Options{}, nil)
				f := newFormAnswers(false)
				a := r.modernAgent
				if over == "stdio" {
					a = r.modernStdioAgent
				}
				answersThroughInputRequired(t, a(client.WithElicitationHandler(f)), f, d.name == "server on 2025-11-25")
				r.waitSettled()
			})
		}
	}
}

// answersThroughInputRequired calls the -ask tool, prompt and (readAsks:
// when the server can ask during a read) resource as agent a, which answers
// with f.
func answersThroughInputRequired(t *testing.T, a *agent, f formAnswers, readAsks bool) {
	t.Helper()
	if got, isErr := a.call(t, "fa__interview", nil); isErr || got != "Grace likes green" {
		t.Errorf("fa__interview = %q (error %v)", got, isErr)
	}
	if got, want := strings.Join(f.messages(), " | "), "fa: Your name? | fa: Grace, your favourite colour?"; got != want {
		t.Errorf("the agent was asked %q, want %q", got, want)
	}
	res, err := a.GetPrompt(t.Context(), mcp.GetPromptRequest{Params: mcp.GetPromptParams{Name: "fa__greet"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Messages) != 1 || res.Messages[0].Content.(mcp.TextContent).Text != "Hello Grace" {
		t.Errorf("fa__greet = %+v", res.Messages)
	}
	if got := f.messages(); len(got) != 1 || got[0] != "fa: Whom to greet?" {
		t.Errorf("for the prompt the agent was asked %q", got)
	}
	if !readAsks {
		return
	}
	rr, err := a.ReadResource(t.Context(), mcp.ReadResourceRequest{Params: mcp.ReadResourceParams{URI: "fault://ask"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rr.Contents) != 1 || rr.Contents[0].(mcp.TextResourceContents).Text != "resource for Grace" {
		t.Errorf("fault://ask = %+v", rr.Contents)
	}
}

// TestModernAgentOpensURLsItDeclared: a server's URL elicitation goes to
// an agent on 2026-07-28 only when it declared URL mode; one that declared
// forms only gets the fallback's answer (here none: declined).
func TestModernAgentOpensURLsItDeclared(t *testing.T) {
	r := newRig(t, map[string]any{"fa": fault([]string{"-ask", "-modern"}, nil)}, Options{}, nil)
	forms, urls := newFormAnswers(false), newFormAnswers(false)
	formsOnly := r.modernAgent(client.WithElicitationHandler(forms))
	if got, _ := formsOnly.call(t, "fa__visit", nil); got != "visit: decline" {
		t.Errorf("fa__visit for an agent without URL mode = %q", got)
	}
	if got := forms.messages(); len(got) > 0 {
		t.Errorf("an agent without URL mode was asked %q", got)
	}
	withURL := r.modernAgent(client.WithElicitationHandler(urls), client.WithClientCapabilities(mcp.ClientCapabilities{
		Elicitation: &mcp.ElicitationCapability{Form: &struct{}{}, URL: &struct{}{}},
	}))
	if got, _ := withURL.call(t, "fa__visit", nil); got != "visit: accept" {
		t.Errorf("fa__visit = %q", got)
	}
	if got := urls.messages(); len(got) != 1 || got[0] != "fa: Sign in, please <https://example.test/sign-in>" {
		t.Errorf("the agent was asked %q", got)
	}
	r.waitSettled()
}

// TestModernAgentSamples: a server's sampling request during a call goes
// to the model of an agent on 2026-07-28 that declared sampling, as an
// input-required round; the server gets its reply whole.
func TestModernAgentSamples(t *testing.T) {
	for _, d := range downstreams {
		t.Run(d.name, func(t *testing.T) {
			r := newRig(t, map[string]any{"fa": fault(d.args, nil)}, Options{}, nil)
			asked := make(chan mcp.CreateMessageParams, 4)
			a := r.modernAgent(agentModel(asked))
			if got, isErr := a.call(t, "fa__sample", map[string]any{"prompt": "say hello"}); isErr || got != "agent-model: hello from the agent" {
				t.Errorf("fa__sample = %q (error %v)", got, isErr)
			}
			if len(asked) != 1 {
				t.Fatalf("the agent's model was asked %d times", len(asked))
			}
			if p := <-asked; len(p.Messages) != 1 || p.MaxTokens != 30 {
				t.Errorf("the agent's model was asked %+v", p)
			}
			r.waitSettled()
		})
	}
}

// TestModernAgentDeclines: an agent on 2026-07-28 that declines the
// server's question ends the round with its decline; the server gets it
// and says so in the result.
func TestModernAgentDeclines(t *testing.T) {
	r := newRig(t, map[string]any{"fa": fault([]string{"-ask"}, nil)}, Options{}, nil)
	a := r.modernAgent(client.WithElicitationHandler(newFormAnswers(true)))
	if got, _ := a.call(t, "fa__elicit", nil); !strings.Contains(got, `"action":"decline"`) {
		t.Errorf("fa__elicit = %q, want the decline", got)
	}
	if got, _ := a.call(t, "fa__interview", nil); got != "the name was not given: decline" {
		t.Errorf("fa__interview = %q", got)
	}
	r.waitSettled()
}

// TestModernAgentThePersonsSamplingChoicesWin: for an agent on 2026-07-28
// too, a sampling command the person set replies instead of the agent's
// model, and their standing "never" declines without asking the agent.
func TestModernAgentThePersonsSamplingChoicesWin(t *testing.T) {
	r := newRig(t, map[string]any{"fa": fault(nil, nil)}, Options{}, func(eo *engine.Options) {
		eo.SamplingCommand = "echo from the command"
		eo.Sample = func(_ context.Context, req engine.SampleRequest) (engine.SampleResponse, error) {
			if req.Command != "" {
				return engine.SampleResponse{Choice: engine.SampleOnce}, nil
			}
			return engine.SampleResponse{Choice: engine.SampleDecline}, nil
		}
	})
	asked := make(chan mcp.CreateMessageParams, 4)
	a := r.modernAgent(agentModel(asked))
	if got, isErr := a.call(t, "fa__sample", nil); isErr || !strings.Contains(got, "from the command") {
		t.Errorf("with a sampling command: %q (error %v)", got, isErr)
	}
	if err := r.gw.eng.SetSampling(t.Context(), "fa", model.SamplingNever); err != nil {
		t.Fatal(err)
	}
	if got, _ := a.call(t, "fa__sample", nil); !strings.Contains(got, "declined") {
		t.Errorf("with never: %q", got)
	}
	if len(asked) > 0 {
		t.Error("the agent was asked")
	}
	r.waitSettled()
}

// rawAgent sends requests as an agent on 2026-07-28 that declared
// elicitation, sampling and roots (rawCaps), one round at a time (no
// automatic retry).
// rawCaps are what a rawAgent declares.
var rawCaps = mcp.ClientCapabilities{
	Elicitation: &mcp.ElicitationCapability{}, Sampling: &mcp.SamplingCapability{},
	Roots: &struct {
		ListChanged bool `json:"listChanged,omitempty"`
	}{},
}

type rawAgent struct {
	*agent
	ids atomic.Int64
}

// round sends method with params (plus the agent's _meta) and returns the
// result, or the JSON-RPC error.
func (a *rawAgent) round(ctx context.Context, t testing.TB, method mcp.MCPMethod, params map[string]any) (json.RawMessage, error) {
	t.Helper()
	params["_meta"] = map[string]any{
		mcp.MetaKeyProtocolVersion:    mcp.ProtocolVersion20260728,
		mcp.MetaKeyClientCapabilities: rawCaps,
		"progressToken":               "raw-progress",
	}
	body, err := json.Marshal(params)
	if err != nil {
		t.Fatal(err)
	}
	h := make(map[string][]string)
	for k, v := range mcp.StandardHeaders(mcp.ProtocolVersion20260728, method, body) {
		h[k] = []string{v}
	}
	resp, err := a.GetTransport().SendRequest(ctx, transport.JSONRPCRequest{
		JSONRPC: mcp.JSONRPC_VERSION, ID: mcp.NewRequestId(1000 + a.ids.Add(1)), Method: string(method), Params: params, Header: h,
	})
	if err != nil {
		return nil, err
	}
	if resp.Error != nil {
		return nil, resp.Error.AsError()
	}
	return resp.Result, nil
}

// askRound is the input-required answer to a round: its requests and state.
func askRound(t testing.TB, res json.RawMessage) mcp.InputRequiredResult {
	t.Helper()
	var ir mcp.InputRequiredResult
	if err := json.Unmarshal(res, &ir); err != nil || !ir.NeedsInput() || ir.RequestState == "" || len(ir.InputRequests) == 0 {
		t.Fatalf("want an input-required result with a requestState, got %s (%v)", res, err)
	}
	return ir
}

// answerAll accepts every elicitation in ir with content.
func answerAll(ir mcp.InputRequiredResult, content map[string]any) mcp.InputResponses {
	out := mcp.InputResponses{}
	for id := range ir.InputRequests {
		out[id] = mcp.NewElicitationInputResponse(mcp.ElicitationResult{
			ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept, Content: content},
		})
	}
	return out
}

// TestRequestStateIsOneUseAndBound: the requestState of an input-required
// answer is unguessable, continues only the request it was given for, and
// only once; an unknown one is a JSON-RPC error that says what to do.
func TestRequestStateIsOneUseAndBound(t *testing.T) {
	r := newRig(t, map[string]any{"fa": fault([]string{"-ask"}, nil)}, Options{}, nil)
	a := &rawAgent{agent: r.modernAgent()}
	ctx := t.Context()
	call := func(params map[string]any) (json.RawMessage, error) {
		params["name"] = "fa__interview"
		return a.round(ctx, t, mcp.MethodToolsCall, params)
	}
	res, err := call(map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	first := askRound(t, res)
	if len(first.RequestState) < 26 {
		t.Errorf("requestState %q is too short to be unguessable", first.RequestState)
	}
	if _, err := a.round(ctx, t, mcp.MethodToolsCall, map[string]any{"name": "fa__echo", "requestState": first.RequestState}); err == nil || !strings.Contains(err.Error(), "belongs to another request") {
		t.Errorf("another tool with the state: %v", err)
	}
	if _, err := call(map[string]any{"requestState": "made-up"}); err == nil || !strings.Contains(err.Error(), "no call waiting for this requestState") ||
		!strings.Contains(err.Error(), "without requestState") {
		t.Errorf("a made-up state: %v", err)
	}
	res, err = call(map[string]any{"requestState": first.RequestState, "inputResponses": answerAll(first, map[string]any{"name": "Ada"})})
	if err != nil {
		t.Fatal(err)
	}
	second := askRound(t, res)
	if second.RequestState == first.RequestState {
		t.Error("the second round kept the first round's state")
	}
	if _, err := call(map[string]any{"requestState": first.RequestState, "inputResponses": answerAll(first, map[string]any{"name": "Eve"})}); err == nil ||
		!strings.Contains(err.Error(), "no call waiting") {
		t.Errorf("the first state used twice: %v", err)
	}
	res, err = call(map[string]any{"requestState": second.RequestState, "inputResponses": answerAll(second, map[string]any{"colour": "red"})})
	if err != nil {
		t.Fatal(err)
	}
	var final mcp.CallToolResult
	if err := json.Unmarshal(res, &final); err != nil || final.NeedsInput() || !strings.Contains(string(res), "Ada likes red") {
		t.Errorf("the last round = %s (%v)", res, err)
	}
	r.waitSettled()
}

// TestAbandonedCallIsCancelled: a call whose agent never continues it is
// cancelled when its wait ends (the timer's own work, called here; the
// timer is TestPendingBoundsAndExpiry's), releasing the engine's call and
// the server's elicitation; an agent that cancels its request while the
// call runs cancels the call too.
func TestAbandonedCallIsCancelled(t *testing.T) {
	r := newRig(t, map[string]any{"fa": fault([]string{"-ask"}, nil)}, Options{}, nil)
	a := &rawAgent{agent: r.modernAgent()}
	res, err := a.round(t.Context(), t, mcp.MethodToolsCall, map[string]any{"name": "fa__elicit"})
	if err != nil {
		t.Fatal(err)
	}
	ir := askRound(t, res)
	r.waitFor("the call to wait", func(g *Gateway) bool { return g.routes.inFlight() == 1 && g.asks.pending.count() == 1 })
	r.gw.asks.pending.expire(ir.RequestState)
	r.waitSettled()
	if _, err := a.round(t.Context(), t, mcp.MethodToolsCall, map[string]any{"name": "fa__elicit", "requestState": ir.RequestState}); err == nil {
		t.Error("an expired state continued a call")
	}

	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := a.round(ctx, t, mcp.MethodToolsCall, map[string]any{"name": "fa__hang"})
		done <- err
	}()
	r.waitFor("the call to run", func(g *Gateway) bool { return g.routes.inFlight() == 1 })
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("the cancelled request returned %v", err)
	}
	r.waitSettled()
}

// TestTooManyWaitingCallsAreRefused: past the bound on calls waiting for
// answers (here 1), a call that asks is cancelled and the agent told why;
// the waiting one is unharmed, and closing the gateway cancels it.
func TestTooManyWaitingCallsAreRefused(t *testing.T) {
	r := newRig(t, map[string]any{"fa": fault([]string{"-ask"}, nil)}, Options{}, nil)
	r.gw.asks.pending = newPending(pendingTTL, 1)
	a := &rawAgent{agent: r.modernAgent()}
	res, err := a.round(t.Context(), t, mcp.MethodToolsCall, map[string]any{"name": "fa__elicit"})
	if err != nil {
		t.Fatal(err)
	}
	askRound(t, res)
	res, err = a.round(t.Context(), t, mcp.MethodToolsCall, map[string]any{"name": "fa__interview"})
	if err != nil {
		t.Fatal(err)
	}
	var refused mcp.CallToolResult
	if err := json.Unmarshal(res, &refused); err != nil || !refused.IsError || !strings.Contains(string(res), "too many calls are waiting for answers (1)") {
		t.Errorf("the second call = %s (%v)", res, err)
	}
	r.waitFor("only the first call to wait", func(g *Gateway) bool { return g.routes.inFlight() == 1 && g.asks.pending.count() == 1 })
}
