package main

import (
	"bufio"
	"context"
	"crypto/subtle"
	"io"
	"net/http"

	"github.com/coder/websocket"
	"github.com/mark3labs/mcp-go/server"
)

// tokenHeader is the header the editor plugins check on the handshake.
const tokenHeader = "x-claude-code-ide-authorization"

// wsHandler accepts a WebSocket whose handshake carries the token, and
// turns any other away with 401 before upgrading, as the plugins do.
func wsHandler(token string, ed *editor) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := r.Header.Get(tokenHeader)
		if subtle.ConstantTimeCompare([]byte(got), []byte(token)) != 1 {
			http.Error(w, "Invalid authentication token", http.StatusUnauthorized)
			return
		}
		conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{"mcp"}})
		if err != nil {
			return
		}
		bridge(r.Context(), conn, ed)
	})
}

// sseHandler serves the legacy HTTP+SSE transport at /sse, with no token:
// what sse-ide connects to.
func sseHandler(ed *editor, base string) http.Handler {
	return server.NewSSEServer(ed.server(), server.WithBaseURL(base))
}

// bridge runs an mcp-go stdio server over pipes for one WebSocket: one
// text message per JSON-RPC line.
func bridge(ctx context.Context, conn *websocket.Conn, ed *editor) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	srv := server.NewStdioServer(ed.server())
	go func() {
		_ = srv.Listen(ctx, inR, outW)
		_ = outW.Close()
	}()
	go func() {
		br := bufio.NewReaderSize(outR, 1<<20)
		for {
			line, err := br.ReadBytes('\n')
			if len(line) > 1 {
				if conn.Write(ctx, websocket.MessageText, line[:len(line)-1]) != nil {
					cancel()
					return
				}
			}
			if err != nil {
				cancel()
				return
			}
		}
	}()
	for {
		_, msg, err := conn.Read(ctx)
		if err != nil {
			_ = inW.Close()
			return
		}
		if _, err := inW.Write(append(msg, '\n')); err != nil {
			return
		}
	}
}
