package inorder

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/server"
)

// TestProgressPrecedesTheResultOverStdio: over stdio every progress
// notification of a call is written before the call's result. mcp-go alone
// writes notifications from a goroutine of its own, which the result can
// overtake.
func TestProgressPrecedesTheResultOverStdio(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	out := NewLines(outW)
	ctx, cancel := context.WithCancel(t.Context())
	served := make(chan error, 1)
	go func() {
		served <- server.NewStdioServer(progressServer()).Listen(out.With(ctx), inR, out)
		out.Close()
		_ = outW.Close()
	}()
	defer func() {
		cancel()
		_ = inW.Close()
		<-served
		_, _ = io.Copy(io.Discard, outR)
	}()
	lines := bufio.NewScanner(outR)
	lines.Buffer(make([]byte, 64<<10), 1<<20)
	send := func(msg string) {
		if _, err := io.WriteString(inW, msg+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	// next is the next message the server wrote, summarized.
	next := func() string {
		if !lines.Scan() {
			t.Fatalf("the server's output ended: %v", lines.Err())
		}
		return summary(lines.Text())
	}
	send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	next()
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for call := 1; call <= 50; call++ {
		send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"work","arguments":{},"_meta":{"progressToken":%d}}}`, call, call))
		var got, want []string
		for i := 1; i <= steps; i++ {
			want = append(want, fmt.Sprintf("progress %d/%d token %d", i, steps, call))
		}
		want = append(want, "result done")
		for range want {
			got = append(got, next())
		}
		if strings.Join(got, "; ") != strings.Join(want, "; ") {
			t.Fatalf("call %d: the server wrote\n  %s\nwant\n  %s", call, strings.Join(got, "; "), strings.Join(want, "; "))
		}
	}
}
