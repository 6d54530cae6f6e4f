package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/ui/serve/inorder"
)

func listen(addr, path string) (net.Listener, string, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, "", err
	}
	base := "http://" + ln.Addr().String()
	fmt.Fprintf(os.Stderr, "listening on %s%s\n", base, path)
	return ln, base, nil
}

func serveHTTP(_ context.Context, c config) error {
	ln, _, err := listen(c.httpAddr, c.path)
	if err != nil {
		return err
	}
	srv := server.NewStreamableHTTPServer(newServer(c, hooks{}), server.WithStateLess(c.stateless), server.WithHTTPContextFunc(withPath))
	mux := http.NewServeMux()
	mux.Handle(c.path, faults(c, inorder.HTTP(srv), "Mcp-Session-Id"))
	return http.Serve(ln, mux) //nolint:gosec // test server
}

func serveSSE(_ context.Context, c config) error {
	ln, base, err := listen(c.sseAddr, "/sse")
	if err != nil {
		return err
	}
	if c.public != "" {
		base = c.public
	}
	srv := server.NewSSEServer(newServer(c, hooks{}), server.WithBaseURL(base))
	return http.Serve(ln, faults(c, srv, "")) //nolint:gosec // test server
}

// faults wraps an MCP HTTP handler with the configured misbehaviour.
// sessionHeader names the session header (streamable HTTP); "" means the
// session is the sessionId query parameter (SSE).
func faults(c config, next http.Handler, sessionHeader string) http.Handler {
	var mu sync.Mutex
	counts := map[string]int{}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Name string `json:"name"`
			} `json:"params"`
		}
		_ = json.Unmarshal(body, &msg)
		if c.delay > 0 {
			time.Sleep(c.delay)
		}
		switch {
		case msg.Method == "initialize" && c.hangInit,
			msg.Method == "server/discover" && c.oldProtocol != "":
			<-r.Context().Done()
			return
		case msg.Method == "tools/call" && msg.Params.Name == "drop":
			if hj, ok := w.(http.Hijacker); ok {
				if conn, _, err := hj.Hijack(); err == nil {
					_ = conn.Close()
					return
				}
			}
		case msg.Method == "server/discover" && !c.modern && sessionHeader != "":
			// An older streamable HTTP server (the TypeScript SDK's) refuses
			// a request without a session.
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, `{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: Server not initialized"},"id":null}`)
			return
		case msg.Method == "server/discover" && !c.modern:
			var m map[string]any
			if json.Unmarshal(body, &m) == nil {
				body = unknownMethod(m)
			}
		case msg.Method == "initialize" && c.oldProtocol != "":
			body = rewriteVersion(body, c.oldProtocol)
		}
		session := r.URL.Query().Get("sessionId")
		if sessionHeader != "" {
			session = r.Header.Get(sessionHeader)
		}
		if c.expireAfter > 0 && session != "" {
			mu.Lock()
			counts[session]++
			n := counts[session]
			mu.Unlock()
			if n > c.expireAfter {
				expire(w, c, msg.ID)
				return
			}
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		next.ServeHTTP(w, r)
	})
}

func expire(w http.ResponseWriter, c config, id json.RawMessage) {
	if !c.expireJSONRPC || len(id) == 0 {
		http.Error(w, "session not found", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32001,"message":"Session not found"}}`, id)
}

func rewriteVersion(body []byte, v string) []byte {
	var m map[string]any
	if json.Unmarshal(body, &m) != nil {
		return body
	}
	if p, ok := m["params"].(map[string]any); ok {
		p["protocolVersion"] = v
	}
	b, _ := json.Marshal(m)
	return b
}
