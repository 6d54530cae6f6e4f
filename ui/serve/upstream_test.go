package serve

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
)

// elicitAnswer is an agent that answers every elicitation with its name
// and records the message it was shown.
type elicitAnswer struct{ asked chan string }

func (e elicitAnswer) Elicit(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	e.asked <- req.Params.Message
	res := &mcp.ElicitationResult{}
	res.Action = mcp.ElicitationResponseActionAccept
	res.Content = map[string]any{"name": "Grace"}
	return res, nil
}

// TestElicitationGoesToTheAgent: a server's elicitation during a call is
// put to the agent that declared elicitation (over HTTP, on the call's own
// event stream), with the server named; its answer reaches the server.
func TestElicitationGoesToTheAgent(t *testing.T) {
	r := newRig(t, map[string]any{"fa": fault(nil, nil)}, Options{}, nil)
	h := elicitAnswer{asked: make(chan string, 1)}
	a := r.httpAgent(client.WithElicitationHandler(h))
	agentAnswersElicit(t, a, h)
}

// TestElicitationWithoutTheCapabilityUsesTheFallback: an agent that did
// not declare elicitation is not asked; the engine's own answer (here the
// CLI's --elicit accept-defaults policy) replies.
func TestElicitationWithoutTheCapabilityUsesTheFallback(t *testing.T) {
	r := newRig(t, map[string]any{"fa": fault(nil, nil)}, Options{}, func(eo *engine.Options) {
		pol, err := engine.ElicitPolicy("accept-defaults")
		if err != nil {
			t.Fatal(err)
		}
		eo.Elicit = pol
	})
	a := r.stdioAgent()
	got, isErr := a.call(t, "fa__elicit", nil)
	if isErr || !strings.Contains(got, `"action":"accept"`) || !strings.Contains(got, "Ada") {
		t.Errorf("fa__elicit = %q (error %v), want the schema's default Ada", got, isErr)
	}
}

// TestSamplingGoesToTheAgent: a server's sampling request is answered by
// the agent's model when the agent declared sampling; the server gets the
// agent's reply whole (its model name included).
func TestSamplingGoesToTheAgent(t *testing.T) {
	r := newRig(t, map[string]any{"fa": fault(nil, nil)}, Options{}, nil)
	asked := make(chan mcp.CreateMessageParams, 1)
	a := r.stdioAgent(client.WithSamplingHandler(samplerFunc(func(_ context.Context, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
		asked <- req.CreateMessageParams
		res := &mcp.CreateMessageResult{Model: "agent-model", StopReason: "endTurn"}
		res.Role = mcp.RoleAssistant
		res.Content = mcp.NewTextContent("hello from the agent")
		return res, nil
	})))
	got, isErr := a.call(t, "fa__sample", map[string]any{"prompt": "say hello"})
	if isErr || got != "agent-model: hello from the agent" {
		t.Errorf("fa__sample = %q (error %v)", got, isErr)
	}
	select {
	case p := <-asked:
		if len(p.Messages) != 1 || p.MaxTokens != 30 {
			t.Errorf("the agent was asked %+v", p)
		}
	default:
		t.Error("the agent was not asked")
	}
	for _, s := range r.gw.eng.Snapshot().Servers { // recorded before the server got its reply
		if n := len(s.Sampling); s.Name == "fa" && (n == 0 || !strings.Contains(s.Sampling[n-1].Outcome, "agent-model, via mcpdeck serve")) {
			t.Errorf("sampling history = %+v", s.Sampling)
		}
	}
}

type samplerFunc func(context.Context, mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error)

func (f samplerFunc) CreateMessage(ctx context.Context, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	return f(ctx, req)
}

// TestLogMessagesReachTheAgent: servers' log messages go to the agent as
// notifications/message, at the level the agent set (which the servers are
// asked for too), the server named in the logger.
func TestLogMessagesReachTheAgent(t *testing.T) {
	r := newRig(t, map[string]any{"fa": fault(nil, nil)}, Options{}, nil)
	a := r.stdioAgent()
	a.toolNames(t)
	//nolint:staticcheck // agents on 2025-11-25 set the level this way; serve must honour it
	if err := a.SetLevel(t.Context(), mcp.SetLevelRequest{Params: mcp.SetLevelParams{Level: mcp.LoggingLevelInfo}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := a.call(t, "fa__flood", map[string]any{"count": 2}); got != "sent 2 notifications" {
		t.Fatalf("fa__flood = %q", got)
	}
	for i := range 2 {
		n := a.note(t, string(mcp.MethodNotificationMessage), "a log message")
		f := n.Params.AdditionalFields
		if f["logger"] != "fa/flood" || f["level"] != "info" || !strings.HasPrefix(f["data"].(string), "flood ") {
			t.Errorf("log message %d = %v", i, f)
		}
	}
}

// TestThePersonsSamplingChoicesWin: a sampling command the person set
// replies instead of the agent's model, and their standing "never" for a
// server declines without asking the agent.
func TestThePersonsSamplingChoicesWin(t *testing.T) {
	r := newRig(t, map[string]any{"fa": fault(nil, nil)}, Options{}, func(eo *engine.Options) {
		eo.SamplingCommand = "echo from the command"
		eo.Sample = func(_ context.Context, req engine.SampleRequest) (engine.SampleResponse, error) {
			if req.Command != "" { // the CLI's headless answer: let the command reply
				return engine.SampleResponse{Choice: engine.SampleOnce}, nil
			}
			return engine.SampleResponse{Choice: engine.SampleDecline}, nil
		}
	})
	asked := make(chan struct{}, 4)
	a := r.stdioAgent(client.WithSamplingHandler(samplerFunc(func(context.Context, mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
		asked <- struct{}{}
		return nil, errors.New("the agent must not be asked")
	})))
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
}

// agentAnswersElicit calls fa__elicit through a and checks that the agent's
// handler h was asked, with the server named, and that its answer (Grace)
// reached the server.
func agentAnswersElicit(t *testing.T, a *agent, h elicitAnswer) {
	t.Helper()
	got, isErr := a.call(t, "fa__elicit", map[string]any{"message": "Who are you?"})
	if isErr || !strings.Contains(got, `"action":"accept"`) || !strings.Contains(got, "Grace") {
		t.Errorf("fa__elicit = %q (error %v), want the agent's answer Grace", got, isErr)
	}
	select {
	case msg := <-h.asked:
		if msg != "fa: Who are you?" {
			t.Errorf("the agent was asked %q", msg)
		}
	default:
		t.Error("the agent was not asked")
	}
}
