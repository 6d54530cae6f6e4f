package transports

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// BenchmarkFrameRecord is what recording costs per message on the path it
// travels: a small tool result and a 2 MB one (cut to 64 KB; masking reads
// 72 KB of it), with a server holding three secrets.
func BenchmarkFrameRecord(b *testing.B) {
	cfg := model.ServerConfig{Env: map[string]string{"A": "secret-one-123", "B": "secret-two-456"}, Headers: map[string]string{"Authorization": "Bearer tok-abcdef"}}
	rec := newFrameRecorder(func(Frame) {}, textsafe.NewMasker(model.Server{Config: cfg}.Secrets()...))
	for _, size := range []struct {
		name string
		n    int
	}{{"200B", 200}, {"2MB", 2 << 20}} {
		result, _ := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text", "text": strings.Repeat("lorem ipsum https://example.com/x?id=7 ", size.n/40)}}})
		resp := &transport.JSONRPCResponse{JSONRPC: "2.0", ID: mcp.NewRequestId(int64(7)), Result: result}
		b.Run(size.name, func(b *testing.B) {
			b.SetBytes(int64(len(result)))
			for b.Loop() {
				rec.response(Received, "tools/call", resp, 0)
			}
		})
	}
}
