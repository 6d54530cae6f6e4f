package transports

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/mark3labs/mcp-go/client/transport"
)

// ResultCapture keeps the raw JSON-RPC result of a request made under the
// context CaptureResult returned. mcp-go decodes results into structs that
// keep only the fields it knows (a tool's input schema loses $schema, allOf,
// if/then/else…), so a caller that must see what the server really sent
// reads the bytes here. The stdio, websocket, streamable HTTP and SSE
// transports fill it; the in-process transport of built-in servers does not.
type ResultCapture struct {
	method string
	mu     sync.Mutex
	result json.RawMessage
}

type captureKey struct{}

// CaptureResult returns a context under which the last successful result of
// a request with method is kept in the returned capture.
func CaptureResult(ctx context.Context, method string) (context.Context, *ResultCapture) {
	c := &ResultCapture{method: method}
	return context.WithValue(ctx, captureKey{}, c), c
}

// Result returns the captured result bytes, or nil when none arrived.
func (c *ResultCapture) Result() json.RawMessage {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.result
}

// noteResult stores resp's result in ctx's capture when the request's method
// is the one asked for. The bytes are kept, not copied: every transport
// decodes a response into a new JSONRPCResponse (json.RawMessage copies
// what it decodes), and nothing writes to them afterwards; a copy would
// double the memory a 26 MB tools list costs.
func noteResult(ctx context.Context, method string, resp *transport.JSONRPCResponse) {
	c, ok := ctx.Value(captureKey{}).(*ResultCapture)
	if !ok || c.method != method || resp == nil || resp.Error != nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.result = resp.Result
}
