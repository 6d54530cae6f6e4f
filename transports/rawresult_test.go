package transports

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// TestRPCPeerCapturesRawResult: the stdio/websocket peer keeps the result
// bytes exactly as received for the method a ResultCapture asks for, and
// nothing for other methods or requests made without a capture.
func TestRPCPeerCapturesRawResult(t *testing.T) {
	const result = `{"tools":[{"name":"t","inputSchema":{"$schema":"x", "if":{},"then":{}, "n":1.0}}]}`
	var p *rpcPeer
	p = newRPCPeer(func(_ context.Context, msg []byte) error {
		var req struct {
			ID json.RawMessage `json:"id"`
		}
		if err := json.Unmarshal(msg, &req); err != nil {
			return err
		}
		go func() {
			_ = p.dispatch([]byte(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":` + result + `}`))
		}()
		return nil
	})
	defer p.fail(ErrClosed)
	send := func(ctx context.Context, id int64, method string) {
		t.Helper()
		req := transport.JSONRPCRequest{JSONRPC: mcp.JSONRPC_VERSION, ID: mcp.NewRequestId(id), Method: method}
		if _, err := p.SendRequest(ctx, req); err != nil {
			t.Fatal(err)
		}
	}
	ctx, c := CaptureResult(context.Background(), "tools/list")
	send(ctx, 1, "ping")
	if got := c.Result(); got != nil {
		t.Fatalf("captured a ping result: %s", got)
	}
	send(context.Background(), 2, "tools/list")
	if got := c.Result(); got != nil {
		t.Fatalf("captured a request made without the capture: %s", got)
	}
	send(ctx, 3, "tools/list")
	if got := string(c.Result()); got != result {
		t.Fatalf("captured %s, want %s", got, result)
	}
}
