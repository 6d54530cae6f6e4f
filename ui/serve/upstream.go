package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/engine"
)

// call is one agent request in flight on a server. A server's elicitation
// or sampling request during it goes to the agent on the request's own
// context (its session, and over HTTP the request's event stream), or, for
// an agent on 2026-07-28, through its relay as an input-required answer.
type call struct {
	server string
	ctx    context.Context
	relay  *relay // nil: not relayed
}

type callKey struct{}

// begin records an agent request on server (relayed through r, or nil)
// until end is called; the returned context carries it, so a request for
// input the engine raises inside the call (a server on 2026-07-28) finds it
// directly.
func (g *Gateway) begin(ctx context.Context, server string, r *relay) (context.Context, func()) {
	c := &call{server: server, ctx: ctx, relay: r}
	g.mu.Lock()
	g.calls = append(g.calls, c)
	g.bumpLocked()
	g.mu.Unlock()
	return context.WithValue(ctx, callKey{}, c), func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		g.calls = slices.DeleteFunc(g.calls, func(x *call) bool { return x == c })
		g.bumpLocked()
	}
}

// callFor is the agent request a server's request belongs to: the one ctx
// carries, else the latest in flight on that server (a server's own
// elicitation/create arrives on its connection, not on the call), else nil.
func (g *Gateway) callFor(ctx context.Context, server string) *call {
	if c, ok := ctx.Value(callKey{}).(*call); ok {
		return c
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, c := range slices.Backward(g.calls) {
		if c.server == server {
			return c
		}
	}
	return nil
}

// capabilities are what the agent of c declared, and whether a request may
// be sent to it at all: protocol 2026-07-28 has no server-to-client
// requests (a modern agent that can answer is asked through a relay).
func capabilities(c *call) (mcp.ClientCapabilities, server.ClientSession, bool) {
	if c == nil {
		return mcp.ClientCapabilities{}, nil, false
	}
	if info := server.RequestProtocolInfoFromContext(c.ctx); info != nil && info.Modern {
		return mcp.ClientCapabilities{}, nil, false
	}
	s := server.ClientSessionFromContext(c.ctx)
	withInfo, ok := s.(server.SessionWithClientInfo)
	if !ok {
		return mcp.ClientCapabilities{}, nil, false
	}
	return withInfo.GetClientCapabilities(), s, true
}

// upstreamCtx is c's request context, also ended when ctx (the engine's
// side) ends.
func upstreamCtx(ctx context.Context, c *call) (context.Context, func()) {
	up, cancel := context.WithCancel(c.ctx)
	stop := context.AfterFunc(ctx, cancel)
	return up, func() { stop(); cancel() }
}

// elicit puts a server's elicitation to the agent when it declared it can
// answer (URL mode only when it declared that too), else to the fallback.
func (g *Gateway) elicit(ctx context.Context, req engine.ElicitRequest) (engine.ElicitResponse, error) {
	c := g.callFor(ctx, req.Server)
	if c != nil && c.relay != nil {
		if !canElicit(c.relay.capabilities(), req.Mode) {
			return g.elicitFallback(ctx, req)
		}
		p, err := elicitParams(req)
		if err != nil {
			return engine.ElicitResponse{}, err
		}
		a, err := c.relay.ask(ctx, mcp.NewElicitationInputRequest(p))
		if err != nil {
			return engine.ElicitResponse{}, fmt.Errorf("asking the agent: %w", err)
		}
		if err := a.DecodeFor(mcp.MethodElicitationCreate); err != nil || a.Elicitation == nil {
			return engine.ElicitResponse{}, fmt.Errorf("the agent's answer to the elicitation is not one: %v", err)
		}
		return elicitResponse(a.Elicitation), nil
	}
	caps, s, ok := capabilities(c)
	es, can := s.(server.SessionWithElicitation)
	if !ok || !can || !canElicit(caps, req.Mode) {
		return g.elicitFallback(ctx, req)
	}
	p, err := elicitParams(req)
	if err != nil {
		return engine.ElicitResponse{}, err
	}
	up, done := upstreamCtx(ctx, c)
	defer done()
	res, err := es.RequestElicitation(up, mcp.ElicitationRequest{Request: mcp.Request{Method: string(mcp.MethodElicitationCreate)}, Params: p})
	if err != nil {
		return engine.ElicitResponse{}, fmt.Errorf("asking the agent: %w", err)
	}
	return elicitResponse(res), nil
}

// canElicit says whether an agent that declared caps can answer an
// elicitation in mode.
func canElicit(caps mcp.ClientCapabilities, mode string) bool {
	return caps.Elicitation != nil && (mode != string(mcp.ElicitationModeURL) || caps.Elicitation.URL != nil)
}

// elicitFallback answers an elicitation the agent cannot.
func (g *Gateway) elicitFallback(ctx context.Context, req engine.ElicitRequest) (engine.ElicitResponse, error) {
	if g.fallback.elicit == nil {
		return engine.ElicitResponse{Action: engine.ElicitDecline, Reason: "the agent cannot answer elicitation"}, nil
	}
	return g.fallback.elicit(ctx, req)
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
func (g *Gateway) sample(ctx context.Context, r engine.SampleRequest) (engine.SampleResponse, error) {
	c := g.callFor(ctx, r.Server)
	if c != nil && c.relay != nil {
		if r.Command != "" || c.relay.capabilities().Sampling == nil {
			return g.sampleFallback(ctx, r)
		}
		p, err := sampleParams(r)
		if err != nil {
			return engine.SampleResponse{}, err
		}
		a, err := c.relay.ask(ctx, mcp.NewSamplingInputRequest(p))
		if err != nil {
			return engine.SampleResponse{}, fmt.Errorf("asking the agent: %w", err)
		}
		if err := a.DecodeFor(mcp.MethodSamplingCreateMessage); err != nil || a.Sampling == nil {
			return engine.SampleResponse{}, fmt.Errorf("the agent's answer to the sampling request is not a message: %v", err)
		}
		return engine.SampleResponse{Choice: engine.SampleOnce, Reply: a.Sampling}, nil
	}
	caps, s, ok := capabilities(c)
	ss, can := s.(server.SessionWithSampling)
	if r.Command != "" || !ok || !can || caps.Sampling == nil {
		return g.sampleFallback(ctx, r)
	}
	p, err := sampleParams(r)
	if err != nil {
		return engine.SampleResponse{}, err
	}
	up, done := upstreamCtx(ctx, c)
	defer done()
	res, err := ss.RequestSampling(up, mcp.CreateMessageRequest{Request: mcp.Request{Method: string(mcp.MethodSamplingCreateMessage)}, CreateMessageParams: p})
	if err != nil {
		return engine.SampleResponse{}, fmt.Errorf("asking the agent: %w", err)
	}
	if res == nil {
		return engine.SampleResponse{}, errors.New("the agent answered the sampling request with nothing")
	}
	return engine.SampleResponse{Choice: engine.SampleOnce, Reply: res}, nil
}

// sampleFallback answers a sampling request the agent may not.
func (g *Gateway) sampleFallback(ctx context.Context, r engine.SampleRequest) (engine.SampleResponse, error) {
	if g.fallback.sample == nil {
		return engine.SampleResponse{Choice: engine.SampleDecline}, nil
	}
	return g.fallback.sample(ctx, r)
}

// sampleParams is a server's sampling request as it goes to the agent.
func sampleParams(r engine.SampleRequest) (mcp.CreateMessageParams, error) {
	var p mcp.CreateMessageParams
	if err := json.Unmarshal(r.Raw, &p); err != nil {
		return p, fmt.Errorf("server %s sent a sampling request mcpdeck cannot pass on: %w", r.Server, err)
	}
	return p, nil
}

// onLog passes a server's log message to every agent session (each gets
// what its logging/setLevel asked for) and to the fallback (stderr).
func (g *Gateway) onLog(server string, l engine.LogEntry) {
	if g.fallback.onLog != nil {
		g.fallback.onLog(server, l)
	}
	if !g.f.server(server) {
		return
	}
	logger := server
	if l.Logger != "" {
		logger += "/" + l.Logger
	}
	n := mcp.NewLoggingMessageNotification(mcp.LoggingLevel(l.Level), logger, l.Data)
	g.mu.Lock()
	ids := make([]string, 0, len(g.sessions))
	for id := range g.sessions {
		ids = append(ids, id)
	}
	g.mu.Unlock()
	for _, id := range ids {
		_ = g.srv.SendLogMessageToSpecificClient(id, n)
	}
}
