package serve

import (
	"context"
	"errors"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/serve/inorder"
)

// connected returns nil when the server a request goes to is connected, or the
// error that says what state it is in.
func (g *Gateway) connected(ctx context.Context, server string) error {
	if s, ok := g.server(server); ok && s.State == model.StateConnected {
		return nil
	}
	return g.unavailable(ctx, server)
}

// failed words an engine error for the agent: a server that went away
// mid-request is worded by its state, anything else as the engine said it.
func (g *Gateway) failed(ctx context.Context, server string, err error) error {
	if errors.Is(err, engine.ErrNotConnected) {
		return g.unavailable(ctx, server)
	}
	return errors.New(textsafe.SanitizeLine(err.Error()))
}

// lookup finds where a name leads in what is offered now.
func lookup[T any](g *Gateway, find func(*exposure) (T, bool)) (T, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return find(&g.x)
}

// callTool runs a tools/call on the server the name leads to. Failures are
// tool results with isError, so the agent's model reads them; a cancelled
// call returns the cancellation (the agent wants no answer). A retry with a
// requestState continues the call waiting for its answers (relay.go).
func (g *Gateway) callTool(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	key := requestKey{mcp.MethodToolsCall, req.Params.Name}
	if req.Params.RequestState != "" {
		s, srv, err := g.resume(ctx, key, req.Params.Meta, req.Params.MultiRoundTripParams)
		if err != nil {
			return nil, err
		}
		return g.toolStep(ctx, srv, s)
	}
	a := arrive(g, ctx, func(x *exposure) (route, bool) { r, ok := x.toolRoutes[req.Params.Name]; return r, ok }, route.to)
	switch {
	case a.gone != "":
		return mcp.NewToolResultError(goneError("tool", "tools", req.Params.Name, a.gone).Error()), nil
	case !a.ok:
		msg, _ := g.offersNo(ctx, "tool", req.Params.Name)
		return mcp.NewToolResultError(msg), nil
	}
	r := a.to
	if err := g.connected(ctx, r.server); err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	s := dispatch(g, ctx, key, r.server, req.Params.Meta, req.Params.InputResponses, func(ctx context.Context, p func(engine.Progress)) (*mcp.CallToolResult, error) {
		return g.eng.CallToolRaw(ctx, r.server, r.name, req.GetArguments(), p)
	})
	return g.toolStep(ctx, r.server, s)
}

// toolStep is the tools/call answer for step s of a call on srv.
func (g *Gateway) toolStep(ctx context.Context, srv string, s step) (*mcp.CallToolResult, error) {
	switch {
	case s.ask != nil:
		return &mcp.CallToolResult{Result: mcp.Result{ResultType: mcp.ResultTypeInputRequired}, MultiRoundTripResult: *s.ask}, nil
	case s.err != nil:
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return mcp.NewToolResultError(g.failed(ctx, srv, s.err).Error()), nil
	}
	return s.res.(*mcp.CallToolResult), nil
}

// dispatch runs the engine call run for the agent request in ctx: relayed
// when the agent is on 2026-07-28 and can answer input, else within the
// request. Answers the agent gave before being asked (in) go with the
// call's first request to the server.
func dispatch[T any](g *Gateway, ctx context.Context, key requestKey, srv string, meta *mcp.Meta, in mcp.InputResponses, run func(context.Context, func(engine.Progress)) (T, error)) step {
	if len(in) > 0 {
		inner := run
		run = func(ctx context.Context, p func(engine.Progress)) (T, error) {
			ctx, err := engine.WithInputResponses(ctx, string(key.method), in)
			if err != nil {
				var zero T
				return zero, err
			}
			return inner(ctx, p)
		}
	}
	if relayable(ctx) {
		return g.startRelay(ctx, key, srv, meta, func(ctx context.Context, p func(engine.Progress)) (any, error) { return run(ctx, p) })
	}
	ctx, end := g.begin(ctx, srv, nil)
	defer end()
	res, err := run(ctx, g.progress(ctx, meta))
	return step{outcome: outcome{res: res, err: err}}
}

// progress forwards a call's progress to the agent under the token it
// gave, or is nil when it gave none.
func (g *Gateway) progress(ctx context.Context, meta *mcp.Meta) func(engine.Progress) {
	if meta == nil || meta.ProgressToken == nil {
		return nil
	}
	tok := meta.ProgressToken
	return func(p engine.Progress) { g.sendProgress(ctx, tok, p) }
}

// sendProgress sends one progress notification on the agent request in
// ctx: on that request's own stream, before its result, while it has not
// been answered (inorder).
func (g *Gateway) sendProgress(ctx context.Context, tok mcp.ProgressToken, p engine.Progress) {
	params := map[string]any{"progressToken": tok, "progress": p.Progress}
	if p.Total > 0 {
		params["total"] = p.Total
	}
	if p.Message != "" {
		params["message"] = p.Message
	}
	_ = inorder.Send(ctx, g.srv, string(mcp.MethodNotificationProgress), params)
}

// getPrompt runs a prompts/get on the server the name leads to.
func (g *Gateway) getPrompt(ctx context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	key := requestKey{mcp.MethodPromptsGet, req.Params.Name}
	if req.Params.RequestState != "" {
		s, srv, err := g.resume(ctx, key, req.Params.Meta, req.Params.MultiRoundTripParams)
		if err != nil {
			return nil, err
		}
		return g.promptStep(ctx, srv, s)
	}
	a := arrive(g, ctx, func(x *exposure) (route, bool) { r, ok := x.promptRoutes[req.Params.Name]; return r, ok }, route.to)
	switch {
	case a.gone != "":
		return nil, goneError("prompt", "prompts", req.Params.Name, a.gone)
	case !a.ok:
		msg, _ := g.offersNo(ctx, "prompt", req.Params.Name)
		return nil, errors.New(msg)
	}
	r := a.to
	if err := g.connected(ctx, r.server); err != nil {
		return nil, err
	}
	s := dispatch(g, ctx, key, r.server, req.Params.Meta, req.Params.InputResponses, func(ctx context.Context, _ func(engine.Progress)) (*mcp.GetPromptResult, error) {
		return g.eng.GetPromptRaw(ctx, r.server, r.name, req.Params.Arguments)
	})
	return g.promptStep(ctx, r.server, s)
}

// promptStep is the prompts/get answer for step s of a call on srv.
func (g *Gateway) promptStep(ctx context.Context, srv string, s step) (*mcp.GetPromptResult, error) {
	switch {
	case s.ask != nil:
		return &mcp.GetPromptResult{Result: mcp.Result{ResultType: mcp.ResultTypeInputRequired}, MultiRoundTripResult: *s.ask}, nil
	case s.err != nil:
		return nil, g.failed(ctx, srv, s.err)
	}
	return s.res.(*mcp.GetPromptResult), nil
}
