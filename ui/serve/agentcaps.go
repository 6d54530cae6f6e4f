package serve

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/engine"
)

// A server on 2026-07-28 reads the client's capabilities from each request
// and asks for input only what they name. Through serve, the request is
// the agent's: the server is told what that agent can have answered, not
// what mcpdeck could ask a person in the TUI.
//
//   - elicitation: as the agent declared it (URL mode only when it did),
//     else mcpdeck's own when serve answers elicitation itself
//     (Options.AnswersElicitation: the --elicit policy), else none;
//   - sampling: as the agent declared it, else mcpdeck's own: a sampling
//     command the person chose answers it, and otherwise the person's
//     standing decline does, an answer a server expects;
//   - roots: mcpdeck's own: serve answers roots/list with the agent's roots
//     when it declared them (questions.roots), else with the project's;
//   - nothing else (tasks, extensions): serve relays none of it.
//
// A server on an earlier protocol learnt mcpdeck's capabilities once, at
// initialize, and is shared by every agent: there they stay mcpdeck's.

// declareAgent returns ctx declaring, on the requests of the call it
// carries, what the agent behind the call can have answered (agent is read
// at each request: a relayed call's latest agent request counts).
func (q *questions) declareAgent(ctx context.Context, agent func() (mcp.ClientCapabilities, bool)) context.Context {
	return engine.WithDeclaredCapabilities(ctx, func(own mcp.ClientCapabilities) mcp.ClientCapabilities {
		caps, ok := agent()
		if !ok {
			return own
		}
		return upstreamCaps(own, caps, q.fallback.answersElicit)
	})
}

// upstreamCaps is what a server is told for an agent that declared agent,
// mcpdeck declaring own (see above).
func upstreamCaps(own, agent mcp.ClientCapabilities, answersElicit bool) mcp.ClientCapabilities {
	out := mcp.ClientCapabilities{Roots: own.Roots, Sampling: own.Sampling}
	if own.Elicitation != nil {
		switch {
		case agent.Elicitation != nil:
			out.Elicitation = agent.Elicitation
		case answersElicit:
			out.Elicitation = own.Elicitation
		}
	}
	if own.Sampling != nil && agent.Sampling != nil {
		out.Sampling = agent.Sampling
	}
	return out
}

// requestCaps are the capabilities the agent request in ctx declared: on
// 2026-07-28 with the request, before it at initialize; false when ctx
// carries no agent request.
func requestCaps(ctx context.Context) (mcp.ClientCapabilities, bool) {
	if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.Modern {
		if info.ClientCapabilities == nil {
			return mcp.ClientCapabilities{}, true
		}
		return *info.ClientCapabilities, true
	}
	if s, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo); ok {
		return s.GetClientCapabilities(), true
	}
	return mcp.ClientCapabilities{}, false
}
