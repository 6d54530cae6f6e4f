package transports

import (
	"context"
	"encoding/json"

	"github.com/mark3labs/mcp-go/client/transport"
)

// resultTaker hands the raw JSON-RPC result of a request made under the
// context TakeResult returned to its take function. mcp-go decodes results
// into structs that keep only the fields it knows (a tool's input schema
// loses $schema, allOf, if/then/else…), so a caller that must see what the
// server really sent reads the bytes there. The tap (tap.go) hands it the
// results of every transport.
type resultTaker struct {
	method string
	take   func(json.RawMessage) json.RawMessage
}

type takerKey struct{}

// TakeResult returns a context under which every successful result of a
// request with method goes to take before the client decodes it, and the
// client decodes what take returns instead. A caller that reads a large
// result itself, as a stream, hands mcp-go a slimmed copy this way, so the
// client neither decodes nor keeps a second copy of it (a 26 MB tools list
// would otherwise live three times: raw, decoded by mcp-go, and ours).
// take runs in the goroutine that made the request, before the client's
// call returns.
func TakeResult(ctx context.Context, method string, take func(json.RawMessage) json.RawMessage) context.Context {
	return context.WithValue(ctx, takerKey{}, resultTaker{method: method, take: take})
}

// noteResult hands resp's result to ctx's taker when the request's method
// is the one asked for, and puts what it returns in its place. The bytes
// are not copied: every transport decodes a response into a new
// JSONRPCResponse, and nothing writes to them afterwards.
func noteResult(ctx context.Context, method string, resp *transport.JSONRPCResponse) {
	r, ok := ctx.Value(takerKey{}).(resultTaker)
	if !ok || r.method != method || resp == nil || resp.Error != nil {
		return
	}
	resp.Result = r.take(resp.Result)
}
