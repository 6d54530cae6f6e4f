package serve

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/engine"
)

// A server's elicitation, sampling or roots/list request during an agent's
// call (call, upstream.go) is put to that agent when it declared it can
// answer: as a request on its session, or for an agent on 2026-07-28
// through the call's relay; otherwise the engine's own answers (the CLI's
// headless policy, the project's root) reply.

// questions is the part that puts servers' questions to the agents: a
// server's elicitation, sampling or roots/list request during an agent's
// call goes to that agent when it declared it can answer (agentcaps.go),
// through the call's relay for an agent on 2026-07-28 (relay.go), whose
// calls wait for their answers in pending; otherwise the fallbacks answer.
// Its fields are set in New and never change; pending keeps its own lock.
type questions struct {
	g        *Gateway
	fallback fallbacks
	pending  *pending
}

// fallbacks answer what the agent cannot: the engine options' own
// callbacks (the CLI's headless policy, stderr for log messages).
type fallbacks struct {
	elicit        engine.ElicitFunc
	sample        engine.SampleFunc
	onLog         func(string, engine.LogEntry)
	answersElicit bool // Options.AnswersElicitation
}

// close abandons every call waiting for its agent's answers.
func (q *questions) close() { q.pending.close() }

// elicit puts a server's elicitation to the agent when it declared it can
// answer (URL mode only when it declared that too), else to the fallback.
func (q *questions) elicit(ctx context.Context, req engine.ElicitRequest) (engine.ElicitResponse, error) {
	c := q.g.routes.callFor(ctx, req.Server)
	if !agentCan(c, mcp.MethodElicitationCreate, func(caps mcp.ClientCapabilities) bool { return canElicit(caps, req.Mode) }) {
		return q.elicitFallback(ctx, req)
	}
	p, err := elicitParams(req)
	if err != nil {
		return engine.ElicitResponse{}, err
	}
	a, err := askAgent(ctx, c, mcp.NewElicitationInputRequest(p), req.Input)
	if err != nil {
		return engine.ElicitResponse{}, err
	}
	return elicitResponse(a.Elicitation), nil
}

// canElicit says whether an agent that declared caps can answer an
// elicitation in mode.
func canElicit(caps mcp.ClientCapabilities, mode string) bool {
	return caps.Elicitation != nil && (mode != string(mcp.ElicitationModeURL) || caps.Elicitation.URL != nil)
}

// elicitFallback answers an elicitation the agent cannot.
func (q *questions) elicitFallback(ctx context.Context, req engine.ElicitRequest) (engine.ElicitResponse, error) {
	if q.fallback.elicit == nil {
		return engine.ElicitResponse{Action: engine.ElicitDecline, Reason: "the agent cannot answer elicitation"}, nil
	}
	return q.fallback.elicit(ctx, req)
}

// elicitParams is a server's elicitation as it goes to the agent, the
// server named in the message.
func elicitParams(req engine.ElicitRequest) (mcp.ElicitationParams, error) {
	p := mcp.ElicitationParams{Message: req.Server + ": " + req.Message, URL: req.URL, ElicitationID: req.ElicitationID}
	if req.Mode == string(mcp.ElicitationModeURL) {
		p.Mode = mcp.ElicitationModeURL
	}
	if len(req.Schema) > 0 {
		var schema any
		if err := json.Unmarshal(req.Schema, &schema); err != nil {
			return p, fmt.Errorf("server %s asked with a schema that is not JSON: %w", req.Server, err)
		}
		p.RequestedSchema = schema
	}
	return p, nil
}

// elicitResponse is the agent's answer as the engine takes it.
func elicitResponse(res *mcp.ElicitationResult) engine.ElicitResponse {
	out := engine.ElicitResponse{Action: string(res.Action)}
	if m, ok := res.Content.(map[string]any); ok {
		out.Content = m
	}
	return out
}

// sample puts a server's sampling request to the agent's model when it
// declared sampling, unless the person chose a command to reply (their
// choice wins); else to the fallback. The person's standing "never" for a
// server is applied by the engine before this is asked.
func (q *questions) sample(ctx context.Context, r engine.SampleRequest) (engine.SampleResponse, error) {
	c := q.g.routes.callFor(ctx, r.Server)
	if r.Command != "" || !agentCan(c, mcp.MethodSamplingCreateMessage, func(caps mcp.ClientCapabilities) bool { return caps.Sampling != nil }) {
		return q.sampleFallback(ctx, r)
	}
	p, err := sampleParams(r)
	if err != nil {
		return engine.SampleResponse{}, err
	}
	a, err := askAgent(ctx, c, mcp.NewSamplingInputRequest(p), r.Input)
	if err != nil {
		return engine.SampleResponse{}, err
	}
	return engine.SampleResponse{Choice: engine.SampleOnce, Reply: a.Sampling}, nil
}

// sampleFallback answers a sampling request the agent may not.
func (q *questions) sampleFallback(ctx context.Context, r engine.SampleRequest) (engine.SampleResponse, error) {
	if q.fallback.sample == nil {
		return engine.SampleResponse{Choice: engine.SampleDecline}, nil
	}
	return q.fallback.sample(ctx, r)
}

// sampleParams is a server's sampling request as it goes to the agent.
func sampleParams(r engine.SampleRequest) (mcp.CreateMessageParams, error) {
	var p mcp.CreateMessageParams
	if err := json.Unmarshal(r.Raw, &p); err != nil {
		return p, fmt.Errorf("server %s sent a sampling request mcpdeck cannot pass on: %w", r.Server, err)
	}
	return p, nil
}

// roots answers a server's roots/list with the agent's roots when it
// declared it can list them, else with mcpdeck's own answer (the project's
// root), as the TUI and the CLI answer.
func (q *questions) roots(ctx context.Context, req engine.RootsRequest) ([]mcp.Root, error) {
	c := q.g.routes.callFor(ctx, req.Server)
	if !agentCan(c, mcp.MethodListRoots, func(caps mcp.ClientCapabilities) bool { return caps.Roots != nil }) {
		return req.Project, nil
	}
	a, err := askAgent(ctx, c, mcp.NewRootsInputRequest(), req.Input)
	if err != nil {
		return nil, err
	}
	return a.Roots.Roots, nil
}

// agentCan says whether the agent of c may be asked for method: it
// declared what want checks, and its call is relayed or its session takes
// such requests.
func agentCan(c *call, method mcp.MCPMethod, want func(mcp.ClientCapabilities) bool) bool {
	if c != nil && c.relay != nil {
		return want(c.relay.capabilities())
	}
	caps, s, ok := capabilities(c)
	if !ok || !want(caps) {
		return false
	}
	switch method {
	case mcp.MethodElicitationCreate:
		_, ok = s.(server.SessionWithElicitation)
	case mcp.MethodSamplingCreateMessage:
		_, ok = s.(server.SessionWithSampling)
	case mcp.MethodListRoots:
		// mcp-go 1.2.1 sends an HTTP session's roots/list only on the
		// agent's standalone event stream (GET), which an agent need not
		// open, and would wait for its answer until the call ends; an
		// agent on 2025-11-25 over HTTP gets mcpdeck's answer instead.
		_, http := s.(server.SessionWithStreamableHTTPConfig)
		_, ok = s.(server.SessionWithRoots)
		ok = ok && !http
	default:
		ok = false
	}
	return ok
}

// askAgent puts req to the agent of c (agentCan said it may be asked):
// through the call's relay (in places it in the server's round), or as a
// request on the agent's session, on the call's own context.
func askAgent(ctx context.Context, c *call, req mcp.InputRequest, in engine.InputKey) (mcp.InputResponse, error) {
	var a mcp.InputResponse
	var err error
	if c.relay != nil {
		a, err = c.relay.ask(ctx, req, in)
	} else {
		a, err = askSession(ctx, c, req)
	}
	if err != nil {
		return a, fmt.Errorf("asking the agent: %w", err)
	}
	if err := a.DecodeFor(req.Method); err != nil {
		return a, fmt.Errorf("the agent's answer to %s cannot be read: %w", req.Method, err)
	}
	if a.Elicitation == nil && a.Sampling == nil && a.Roots == nil {
		return a, fmt.Errorf("the agent answered %s with nothing", req.Method)
	}
	return a, nil
}

// askSession sends req to the agent's session, on the request's context.
func askSession(ctx context.Context, c *call, req mcp.InputRequest) (mcp.InputResponse, error) {
	up, done := upstreamCtx(ctx, c)
	defer done()
	s := server.ClientSessionFromContext(c.ctx)
	switch req.Method {
	case mcp.MethodElicitationCreate:
		res, err := s.(server.SessionWithElicitation).RequestElicitation(up,
			mcp.ElicitationRequest{Request: mcp.Request{Method: string(req.Method)}, Params: *req.Elicitation})
		if err != nil || res == nil {
			return mcp.InputResponse{}, err
		}
		return mcp.NewElicitationInputResponse(*res), nil
	case mcp.MethodSamplingCreateMessage:
		res, err := s.(server.SessionWithSampling).RequestSampling(up,
			mcp.CreateMessageRequest{Request: mcp.Request{Method: string(req.Method)}, CreateMessageParams: *req.Sampling})
		if err != nil || res == nil {
			return mcp.InputResponse{}, err
		}
		return mcp.NewSamplingInputResponse(*res), nil
	case mcp.MethodListRoots:
		res, err := s.(server.SessionWithRoots).ListRoots(up, mcp.ListRootsRequest{Request: mcp.Request{Method: string(req.Method)}})
		if err != nil || res == nil {
			return mcp.InputResponse{}, err
		}
		return mcp.NewRootsInputResponse(*res), nil
	default:
		return mcp.InputResponse{}, fmt.Errorf("mcpdeck serve does not pass %s on", req.Method)
	}
}
