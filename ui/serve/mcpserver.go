package serve

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/model"
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
	hooks.AddOnRegisterSession(func(_ context.Context, s server.ClientSession) {
		g.mu.Lock()
		defer g.mu.Unlock()
		g.sessions[s.SessionID()] = s
	})
	hooks.AddOnUnregisterSession(func(_ context.Context, s server.ClientSession) {
		g.mu.Lock()
		delete(g.sessions, s.SessionID())
		g.mu.Unlock()
		g.dropSubscriptions(g.base, s.SessionID(), "")
	})
	hooks.AddOnRequestInitialization(g.explainNotOffered)
	hooks.AddBeforeListTools(func(ctx context.Context, _ any, _ *mcp.ListToolsRequest) { g.start.waitReady(ctx) })
	hooks.AddBeforeListPrompts(func(ctx context.Context, _ any, _ *mcp.ListPromptsRequest) { g.start.waitReady(ctx) })
	hooks.AddBeforeListResources(func(ctx context.Context, _ any, _ *mcp.ListResourcesRequest) { g.start.waitReady(ctx) })
	// A call may come without a listing first (inspector-cli does that).
	hooks.AddBeforeCallTool(func(ctx context.Context, _ any, _ *mcp.CallToolRequest) { g.start.waitReady(ctx) })
	hooks.AddBeforeGetPrompt(func(ctx context.Context, _ any, _ *mcp.GetPromptRequest) { g.start.waitReady(ctx) })
	hooks.AddBeforeReadResource(func(ctx context.Context, _ any, _ *mcp.ReadResourceRequest) { g.start.waitReady(ctx) })
	hooks.AddAfterReadResource(asInputRequired)
	hooks.AddBeforeSubscribe(func(ctx context.Context, _ any, _ *mcp.SubscribeRequest) { g.start.waitReady(ctx) })
	hooks.AddAfterSubscribe(g.subscribe)
	hooks.AddAfterUnsubscribe(g.unsubscribe)
	hooks.AddAfterSetLevel(func(ctx context.Context, _ any, req *mcp.SetLevelRequest, _ *mcp.EmptyResult) {
		g.setLevel(ctx, string(req.Params.Level))
	})
	return server.NewMCPServer("mcpdeck", version,
		server.WithToolCapabilities(true),
		server.WithPromptCapabilities(true),
		server.WithResourceCapabilities(true, true),
		server.WithLogging(),
		server.WithCompletions(),
		server.WithPromptCompletionProvider(completer{g}),
		server.WithResourceCompletionProvider(completer{g}),
		server.WithInstructions(instructions(g.f.prefix)),
		server.WithHooks(hooks),
		server.WithRecovery(),
	)
}

// setLevel passes the agent's logging/setLevel on to every offered server
// that is connected, so they send what the agent asked for.
func (g *Gateway) setLevel(ctx context.Context, level string) {
	g.mu.Lock()
	var names []string
	for i := range g.snap.Servers {
		s := &g.snap.Servers[i]
		if g.f.exposes(s) && s.State == model.StateConnected {
			names = append(names, s.Name)
		}
	}
	g.mu.Unlock()
	for _, n := range names {
		if err := g.eng.SetLogLevel(ctx, n, level); err != nil {
			g.note("setting the log level of " + n + ": " + err.Error())
		}
	}
}
