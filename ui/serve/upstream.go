package serve

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
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
