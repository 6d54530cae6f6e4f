package serve

import (
	"context"
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
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
	return errors.New(model.SanitizeLine(err.Error()))
}

// lookup finds where a name leads in what is offered now.
func lookup[T any](g *Gateway, find func(*exposure) (T, bool)) (T, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return find(&g.x)
}

// callTool runs a tools/call on the server the name leads to. Failures are
// tool results with isError, so the agent's model reads them; a cancelled
// call returns the cancellation (the agent wants no answer).
func (g *Gateway) callTool(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	r, ok := lookup(g, func(x *exposure) (route, bool) { r, ok := x.toolRoutes[req.Params.Name]; return r, ok })
	if !ok {
		return mcp.NewToolResultError(fmt.Sprintf("mcpdeck serve offers no tool %q now", req.Params.Name)), nil
	}
	if err := g.connected(ctx, r.server); err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	ctx, end := g.begin(ctx, r.server)
	defer end()
	res, err := g.eng.CallToolRaw(ctx, r.server, r.name, req.GetArguments(), g.progress(ctx, req.Params.Meta))
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return mcp.NewToolResultError(g.failed(ctx, r.server, err).Error()), nil
	}
	return res, nil
}

// progress forwards a call's progress to the agent under the token it
// gave, or is nil when it gave none.
func (g *Gateway) progress(ctx context.Context, meta *mcp.Meta) func(engine.Progress) {
	if meta == nil || meta.ProgressToken == nil {
		return nil
	}
	tok := meta.ProgressToken
	return func(p engine.Progress) {
		params := map[string]any{"progressToken": tok, "progress": p.Progress}
		if p.Total > 0 {
			params["total"] = p.Total
		}
		if p.Message != "" {
			params["message"] = p.Message
		}
		_ = g.srv.SendNotificationToClient(ctx, string(mcp.MethodNotificationProgress), params)
	}
}

// getPrompt runs a prompts/get on the server the name leads to.
func (g *Gateway) getPrompt(ctx context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	r, ok := lookup(g, func(x *exposure) (route, bool) { r, ok := x.promptRoutes[req.Params.Name]; return r, ok })
	if !ok {
		return nil, fmt.Errorf("mcpdeck serve offers no prompt %q now", req.Params.Name)
	}
	if err := g.connected(ctx, r.server); err != nil {
		return nil, err
	}
	ctx, end := g.begin(ctx, r.server)
	defer end()
	res, err := g.eng.GetPromptRaw(ctx, r.server, r.name, req.Params.Arguments)
	if err != nil {
		return nil, g.failed(ctx, r.server, err)
	}
	return res, nil
}

// readResource reads a listed resource from the server that offers it.
func (g *Gateway) readResource(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
	server, ok := lookup(g, func(x *exposure) (string, bool) { s, ok := x.resourceRoutes[req.Params.URI]; return s, ok })
	if !ok {
		return nil, fmt.Errorf("mcpdeck serve offers no resource %q now", req.Params.URI)
	}
	return g.read(ctx, server, req.Params.URI)
}

// readTemplate reads a URI that matched template from the server offering
// the template.
func (g *Gateway) readTemplate(template string) func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
	return func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		server, ok := lookup(g, func(x *exposure) (string, bool) { s, ok := x.templateRoutes[template]; return s, ok })
		if !ok {
			return nil, fmt.Errorf("mcpdeck serve offers no resource template %q now", template)
		}
		return g.read(ctx, server, req.Params.URI)
	}
}

func (g *Gateway) read(ctx context.Context, server, uri string) ([]mcp.ResourceContents, error) {
	if err := g.connected(ctx, server); err != nil {
		return nil, err
	}
	ctx, end := g.begin(ctx, server)
	defer end()
	res, err := g.eng.ReadResourceRaw(ctx, server, uri)
	if err != nil {
		return nil, g.failed(ctx, server, err)
	}
	return res.Contents, nil
}
