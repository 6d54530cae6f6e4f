package serve

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/engine"
)

// completer passes the agent's completion/complete on to the server that
// offers the prompt or resource template (the engine bounds and cleans
// what comes back), waiting like a call for a server still connecting
// whose remembered lists offered it.
type completer struct{ g *Gateway }

// CompletePromptArgument implements server.PromptCompletionProvider.
func (c completer) CompletePromptArgument(ctx context.Context, prompt string, arg mcp.CompleteArgument, cc mcp.CompleteContext) (*mcp.Completion, error) {
	c.g.start.waitReady(ctx) // an agent may complete before it lists, as it may call
	a := arrive(c.g, ctx, func(x *exposure) (route, bool) { r, ok := x.promptRoutes[prompt]; return r, ok }, route.to)
	switch {
	case a.gone != "":
		return nil, goneError("prompt", "prompts", prompt, a.gone)
	case !a.ok:
		return nil, fmt.Errorf("mcpdeck serve offers no prompt %q now", prompt)
	}
	return c.complete(ctx, a.to.server, engine.CompletionRef{Prompt: a.to.name}, arg, cc)
}

// CompleteResourceArgument implements server.ResourceCompletionProvider.
func (c completer) CompleteResourceArgument(ctx context.Context, template string, arg mcp.CompleteArgument, cc mcp.CompleteContext) (*mcp.Completion, error) {
	c.g.start.waitReady(ctx)
	a := arrive(c.g, ctx, func(x *exposure) (string, bool) { s, ok := x.templateRoutes[template]; return s, ok }, func(s string) string { return s })
	switch {
	case a.gone != "":
		return nil, goneError("resource template", "resource templates", template, a.gone)
	case !a.ok:
		return nil, fmt.Errorf("mcpdeck serve offers no resource template %q now", template)
	}
	return c.complete(ctx, a.to, engine.CompletionRef{Template: template}, arg, cc)
}

func (c completer) complete(ctx context.Context, server string, ref engine.CompletionRef, arg mcp.CompleteArgument, cc mcp.CompleteContext) (*mcp.Completion, error) {
	if err := c.g.connected(ctx, server); err != nil {
		return nil, err
	}
	values, err := c.g.eng.Complete(ctx, server, ref, arg.Name, arg.Value, cc.Arguments)
	if err != nil {
		return nil, c.g.failed(ctx, server, err)
	}
	return &mcp.Completion{Values: values}, nil
}
