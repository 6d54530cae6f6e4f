package serve

import (
	"context"
	"slices"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/engine/lock"
)

// routes is the part that takes an agent's request where its name leads:
// tools/call, prompts/get, resources/read and completions to the server
// offering the name (handlers.go, readhandlers.go, complete.go), waiting
// for a server still connecting (await.go), and saying why when the name
// leads nowhere or the server cannot run (notoffered.go,
// statesentence.go). It keeps the agent requests in flight, so that a
// server's question during one finds its agent (callFor).
type routes struct {
	g *Gateway

	mu    sync.Mutex
	calls []*call // agent requests in flight, oldest first
}

type callKey struct{}

// begin records an agent request on server (relayed through r, or nil)
// until end is called; the returned context carries it, so a request for
// input the engine raises inside the call (a server on 2026-07-28) finds it
// directly, and declares the agent's capabilities upstream (agentcaps.go).
func (rs *routes) begin(ctx context.Context, server string, r *relay) (context.Context, func()) {
	c := &call{server: server, ctx: ctx, relay: r}
	lock.With(&rs.mu, func() { rs.calls = append(rs.calls, c) })
	rs.g.changed.ring()
	agent := func() (mcp.ClientCapabilities, bool) { return requestCaps(ctx) }
	if r != nil {
		agent = func() (mcp.ClientCapabilities, bool) { return r.capabilities(), true }
	}
	return context.WithValue(rs.g.asks.declareAgent(ctx, agent), callKey{}, c), func() {
		lock.With(&rs.mu, func() { rs.calls = slices.DeleteFunc(rs.calls, func(x *call) bool { return x == c }) })
		rs.g.changed.ring()
	}
}

// callFor is the agent request a server's request belongs to: the one ctx
// carries, else the latest in flight on that server (a server's own
// elicitation/create arrives on its connection, not on the call), else nil.
func (rs *routes) callFor(ctx context.Context, server string) (found *call) {
	if c, ok := ctx.Value(callKey{}).(*call); ok {
		return c
	}
	lock.With(&rs.mu, func() {
		for _, c := range slices.Backward(rs.calls) {
			if c.server == server {
				found = c
				return
			}
		}
	})
	return found
}

// requestsOn returns, by agent session, the context of that session's
// latest request in flight on server (for a relayed call, the agent's
// latest request of it, where its progress goes): a notification the
// server sends during the call belongs on that request's stream.
func (rs *routes) requestsOn(server string) map[string]context.Context {
	out := map[string]context.Context{}
	var calls []*call
	lock.With(&rs.mu, func() { calls = slices.Clone(rs.calls) })
	for _, c := range calls { // oldest first: the latest of a session stays
		if c.server != server {
			continue
		}
		ctx := c.ctx
		if c.relay != nil {
			if a := c.relay.attached(); a != nil {
				ctx = a.ctx
			}
		}
		if s := mcpserver.ClientSessionFromContext(ctx); s != nil {
			out[s.SessionID()] = ctx
		}
	}
	return out
}
