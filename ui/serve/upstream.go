package serve

import (
	"context"
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
// directly, and declares the agent's capabilities upstream (agentcaps.go).
func (g *Gateway) begin(ctx context.Context, server string, r *relay) (context.Context, func()) {
	c := &call{server: server, ctx: ctx, relay: r}
	g.mu.Lock()
	g.calls = append(g.calls, c)
	g.bumpLocked()
	g.mu.Unlock()
	agent := func() (mcp.ClientCapabilities, bool) { return requestCaps(ctx) }
	if r != nil {
		agent = func() (mcp.ClientCapabilities, bool) { return r.capabilities(), true }
	}
	return context.WithValue(g.declareAgent(ctx, agent), callKey{}, c), func() {
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
