package serve

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// instructions tell the agent what it is talking to, and how names are
// made under p.
func instructions(p Prefix) string {
	return "mcpdeck serve offers every MCP server mcpdeck manages for you as one server. " +
		p.instructions() + "resources keep their URIs. " +
		"A server that is reconnecting, failed or needs sign-in answers with an error that says so."
}

// newMCPServer is the MCP server the agent talks to: list_changed declared
// for tools, prompts and resources; resource subscriptions (subscribe.go);
// logging; a first listing that waits
// for servers still connecting (and so does a first call); sessions
// tracked for log messages.
func (g *Gateway) newMCPServer(version string) *server.MCPServer {
	if version == "" {
		version = "dev"
	}
	hooks := &server.Hooks{}
	hooks.AddOnRegisterSession(g.sessions.register)
	hooks.AddOnUnregisterSession(g.sessions.unregister)
	hooks.AddOnRequestInitialization(g.routes.explainNotOffered)
	hooks.AddBeforeListTools(func(ctx context.Context, _ any, _ *mcp.ListToolsRequest) { g.start.waitReady(ctx) })
	hooks.AddBeforeListPrompts(func(ctx context.Context, _ any, _ *mcp.ListPromptsRequest) { g.start.waitReady(ctx) })
	hooks.AddBeforeListResources(func(ctx context.Context, _ any, _ *mcp.ListResourcesRequest) { g.start.waitReady(ctx) })
	// A call may come without a listing first (inspector-cli does that).
	hooks.AddBeforeCallTool(func(ctx context.Context, _ any, _ *mcp.CallToolRequest) { g.start.waitReady(ctx) })
	hooks.AddBeforeGetPrompt(func(ctx context.Context, _ any, _ *mcp.GetPromptRequest) { g.start.waitReady(ctx) })
	hooks.AddBeforeReadResource(func(ctx context.Context, _ any, _ *mcp.ReadResourceRequest) { g.start.waitReady(ctx) })
	hooks.AddAfterReadResource(asInputRequired)
	hooks.AddBeforeSubscribe(func(ctx context.Context, _ any, _ *mcp.SubscribeRequest) { g.start.waitReady(ctx) })
	hooks.AddAfterSubscribe(g.sessions.subscribe)
	hooks.AddAfterUnsubscribe(g.sessions.unsubscribe)
	hooks.AddAfterSetLevel(func(ctx context.Context, _ any, req *mcp.SetLevelRequest, _ *mcp.EmptyResult) {
		g.setLevel(ctx, string(req.Params.Level))
	})
	return server.NewMCPServer("mcpdeck", version,
		server.WithToolCapabilities(true),
		server.WithPromptCapabilities(true),
		server.WithResourceCapabilities(true, true),
		server.WithLogging(),
		server.WithCompletions(),
		server.WithPromptCompletionProvider(completer{g.routes}),
		server.WithResourceCompletionProvider(completer{g.routes}),
		server.WithInstructions(instructions(g.f.prefix)),
		server.WithHooks(hooks),
		server.WithRecovery(),
	)
}

// setLevel passes the agent's logging/setLevel on to every offered server
// that is connected, so they send what the agent asked for.
func (g *Gateway) setLevel(ctx context.Context, level string) {
	_, names := g.lists.census()
	for _, n := range names {
		if err := g.eng.SetLogLevel(ctx, n, level); err != nil {
			g.note("setting the log level of " + n + ": " + err.Error())
		}
	}
}
