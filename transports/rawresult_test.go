package transports

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// TestTapHandsOverRawResult: the tap over a transport (here the
// stdio/websocket peer) hands the result bytes exactly as received to
// TakeResult's function for its method, and the caller gets what that
// returns; other methods and requests made without it are left alone.
func TestTapHandsOverRawResult(t *testing.T) {
	const result = `{"tools":[{"name":"t","inputSchema":{"$schema":"x", "if":{},"then":{}, "n":1.0}}]}`
	var recorded []Frame
	rec := newFrameRecorder(func(f Frame) { recorded = append(recorded, f) }, nil)
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
	send := func(ctx context.Context, id int64, method string) string {
		t.Helper()
		req := transport.JSONRPCRequest{JSONRPC: mcp.JSONRPC_VERSION, ID: mcp.NewRequestId(id), Method: method}
		resp, err := tapped(peerTransport{p}, rec).SendRequest(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		return string(resp.Result)
	}
	var taken []string
	ctx := TakeResult(context.Background(), "tools/list", func(raw json.RawMessage) json.RawMessage {
		taken = append(taken, string(raw))
		return json.RawMessage(`{"tools":[]}`)
	})
	if got := send(ctx, 1, "ping"); got != result || len(taken) != 0 {
		t.Fatalf("a ping result was taken: %v", taken)
	}
	if got := send(context.Background(), 2, "tools/list"); got != result || len(taken) != 0 {
		t.Fatalf("a request made without TakeResult was taken: %v", taken)
	}
	if got := send(ctx, 3, "tools/list"); got != `{"tools":[]}` || len(taken) != 1 || taken[0] != result {
		t.Fatalf("the caller got %s; taken %v, want %s", got, taken, result)
	}
	if last := recorded[len(recorded)-1]; last.Kind != KindResponse || !strings.Contains(last.Body, `"if":{}`) {
		t.Fatalf("the traffic shows %+v, not the result the server sent", last)
	}
}

// peerTransport is an rpcPeer as a whole transport.
type peerTransport struct{ *rpcPeer }

func (peerTransport) Start(context.Context) error { return nil }

func (p peerTransport) Close() error { p.fail(ErrClosed); return nil }
