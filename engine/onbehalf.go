package engine

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/transports"
)

// WithDeclaredCapabilities returns a context under which a call's requests
// to a server on protocol 2026-07-28 declare edit(own) as the client's
// capabilities, own being what mcpdeck declares; edit runs at each
// request. A gateway (mcpdeck serve) declares what the agent it calls for
// can have answered, so the server asks only that. A server on an earlier
// protocol learnt the capabilities once, at initialize, and keeps them.
func WithDeclaredCapabilities(ctx context.Context, edit func(own mcp.ClientCapabilities) mcp.ClientCapabilities) context.Context {
	return transports.WithCapabilities(ctx, edit)
}

// WithInputResponses returns a context under which a call (method
// "tools/call", "prompts/get" or "resources/read") to a server on
// 2026-07-28 sends in with its first request: answers a client gave before
// the server asked (a gateway passing on an agent's request that has them).
func WithInputResponses(ctx context.Context, method string, in mcp.InputResponses) (context.Context, error) {
	raw, err := json.Marshal(in)
	if err != nil {
		return ctx, fmt.Errorf("the answers given with the request cannot be passed on: %w", err)
	}
	return transports.WithFirstInput(ctx, method, raw), nil
}
