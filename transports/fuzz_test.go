package transports

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// FuzzDispatch feeds arbitrary server output to the JSON-RPC router: it must
// never panic, and anything it rejects is a *ProtocolError.
func FuzzDispatch(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"result":{}}`,
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}`,
		`{"jsonrpc":"2.0","id":"x","method":"roots/list"}`,
		`[{"jsonrpc":"2.0","id":1,"result":null},{"jsonrpc":"2.0","method":"a"}]`,
		`{"jsonrpc":"1.0","id":1}`, `{oops`, `[`, `null`, `{"jsonrpc":"2.0","id":1,"error":"plain"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		p := newRPCPeer(func(context.Context, []byte) error { return nil })
		defer p.fail(ErrClosed)
		p.SetNotificationHandler(func(mcp.JSONRPCNotification) {})
		p.SetRequestHandler(func(context.Context, transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
			return nil, errors.New("no")
		})
		if err := p.dispatch(msg); err != nil {
			var pe *ProtocolError
			if !errors.As(err, &pe) {
				t.Fatalf("dispatch error %T %v is not a *ProtocolError", err, err)
			}
		}
	})
}

// FuzzLineReader checks that lines come back intact and that none exceeds
// the limit.
func FuzzLineReader(f *testing.F) {
	f.Add([]byte("a\nbb\n\nccc"), 2)
	f.Add([]byte("short\nwaytoolongline\nok\n"), 5)
	f.Fuzz(func(t *testing.T, in []byte, max int) {
		if max <= 0 || max > 1<<16 {
			return
		}
		lr := newLineReader(bufio.NewReaderSize(bytes.NewReader(in), 16), max)
		var got [][]byte
		var long []bool
		for {
			line, err := lr.next()
			if errors.Is(err, errLineTooLong) {
				got, long = append(got, nil), append(long, true)
				continue
			}
			if err != nil {
				break
			}
			if len(line) > max {
				t.Fatalf("line of %d > %d", len(line), max)
			}
			got, long = append(got, append([]byte(nil), line...)), append(long, false)
		}
		want := bytes.Split(bytes.TrimSuffix(in, []byte("\n")), []byte("\n"))
		if len(in) == 0 {
			want = nil
		}
		if len(got) != len(want) {
			t.Fatalf("%d lines, want %d", len(got), len(want))
		}
		for i := range want {
			if !long[i] && !bytes.Equal(got[i], want[i]) {
				t.Fatalf("line %d = %q, want %q", i, got[i], want[i])
			}
			if long[i] != (len(want[i]) > max) {
				t.Fatalf("line %d (%d bytes) too-long = %v", i, len(want[i]), long[i])
			}
		}
	})
}
