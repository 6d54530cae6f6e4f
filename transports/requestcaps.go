package transports

import (
	"context"
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"
)

// On protocol 2026-07-28 every request carries the client's capabilities
// in its _meta, and a server asks for input only what they name. mcp-go
// writes the capabilities the connection was built with into every
// request; a gateway asking on an agent's behalf (mcpdeck serve) must
// declare what that agent can have answered instead, request by request.

type capsKey struct{}

// WithCapabilities returns a context under which every request on a
// 2026-07-28 session declares edit(own) in its _meta, own being the
// capabilities the connection declares. Sessions on earlier protocols
// declared theirs once, at initialize, and are left as they are.
func WithCapabilities(ctx context.Context, edit func(own mcp.ClientCapabilities) mcp.ClientCapabilities) context.Context {
	return context.WithValue(ctx, capsKey{}, edit)
}

// declareCapabilities puts the capabilities ctx asks for (WithCapabilities)
// into params' _meta, when params carries the _meta mcp-go writes on a
// 2026-07-28 session (a JSON object's fields); anything else is returned
// unchanged.
func declareCapabilities(ctx context.Context, params any) any {
	edit, ok := ctx.Value(capsKey{}).(func(mcp.ClientCapabilities) mcp.ClientCapabilities)
	if !ok {
		return params
	}
	fields, ok := params.(map[string]json.RawMessage)
	if !ok || fields["_meta"] == nil {
		return params
	}
	var meta map[string]json.RawMessage
	if err := json.Unmarshal(fields["_meta"], &meta); err != nil || meta == nil {
		return params
	}
	var own mcp.ClientCapabilities
	if raw, ok := meta[mcp.MetaKeyClientCapabilities]; ok {
		if err := json.Unmarshal(raw, &own); err != nil {
			return params
		}
	}
	raw, err := json.Marshal(edit(own))
	if err != nil {
		return params
	}
	meta[mcp.MetaKeyClientCapabilities] = raw
	encoded, err := json.Marshal(meta)
	if err != nil {
		return params
	}
	out := make(map[string]json.RawMessage, len(fields))
	for k, v := range fields {
		out[k] = v
	}
	out["_meta"] = encoded
	return out
}
