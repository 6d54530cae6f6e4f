package transports

import (
	"context"
	"encoding/json"
	"sync/atomic"
)

// On protocol 2026-07-28 a client may answer a server's questions before
// they are asked: inputResponses on a request without a requestState. mcp-go
// sends a call's first request without any (its retries carry the answers
// it gathered), so a gateway passing on an agent's request that has them
// puts them on that first request here.

type firstInputKey struct{}

// firstInput is what WithFirstInput put in a context.
type firstInput struct {
	method    string
	responses json.RawMessage
	used      atomic.Bool
}

// WithFirstInput returns a context under which the first request for
// method on a 2026-07-28 session carries responses (a JSON object of
// inputResponses), when it carries none of its own.
func WithFirstInput(ctx context.Context, method string, responses json.RawMessage) context.Context {
	return context.WithValue(ctx, firstInputKey{}, &firstInput{method: method, responses: responses})
}

// addFirstInput puts ctx's first inputResponses (WithFirstInput) into
// params, when params is the first request for their method and is a
// JSON object's fields (mcp-go's form on a 2026-07-28 session) without
// inputResponses; anything else is returned unchanged.
func addFirstInput(ctx context.Context, method string, params any) any {
	f, ok := ctx.Value(firstInputKey{}).(*firstInput)
	if !ok || f.method != method {
		return params
	}
	fields, ok := params.(map[string]json.RawMessage)
	if !ok || fields["inputResponses"] != nil || !f.used.CompareAndSwap(false, true) {
		return params
	}
	out := make(map[string]json.RawMessage, len(fields)+1)
	for k, v := range fields {
		out[k] = v
	}
	out["inputResponses"] = f.responses
	return out
}
