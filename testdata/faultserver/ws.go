package main

import (
	"bufio"
	"context"
	"io"
	"log"
	"net/http"
	"os"

	"github.com/coder/websocket"
	"github.com/mark3labs/mcp-go/server"
)

// serveWS bridges each WebSocket connection to an mcp-go stdio server over
// pipes: one text message per JSON-RPC line. Connections are served one at
// a time (mcp-go's stdio server has a single session).
func serveWS(_ context.Context, c config) error {
	ln, _, err := listen(c.wsAddr, "/ws")
	if err != nil {
		return err
	}
	sem := make(chan struct{}, 1)
	mux := http.NewServeMux()
	mux.HandleFunc("/ws", func(w http.ResponseWriter, r *http.Request) {
		conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{"mcp"}})
		if err != nil {
			return
		}
		sem <- struct{}{}
		defer func() { <-sem }()
		bridge(r.Context(), conn, c)
	})
	return http.Serve(ln, mux) //nolint:gosec // test server
}

func bridge(ctx context.Context, conn *websocket.Conn, c config) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	conn.SetReadLimit(64 << 20)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	h := hooks{drop: func() { _ = conn.CloseNow() }}
	srv := server.NewStdioServer(newServer(c, h))
	srv.SetErrorLogger(log.New(os.Stderr, "", 0))
	go func() {
		_ = srv.Listen(ctx, inR, outW)
		_ = outW.Close()
	}()
	go func() { // server → client
		br := bufio.NewReaderSize(outR, 1<<20)
		for {
			line, err := br.ReadBytes('\n')
			if len(line) > 1 {
				if werr := conn.Write(ctx, websocket.MessageText, line[:len(line)-1]); werr != nil {
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
	for { // client → server
		_, msg, err := conn.Read(ctx)
		if err != nil {
			_ = inW.Close()
			return
		}
		out, keep := filterMessage(append(msg, '\n'), c)
		if keep {
			if _, err := inW.Write(out); err != nil {
				return
			}
		}
	}
}
