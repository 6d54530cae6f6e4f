package transports

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/model"
)

// TestCancelledCallIsCancelledOnTheServerOverHTTP: a call cancelled by the
// person over streamable HTTP (protocol 2025-11-25) reaches the server as
// notifications/cancelled naming the request, and ends at once.
func TestCancelledCallIsCancelledOnTheServerOverHTTP(t *testing.T) {
	s := server.NewMCPServer("slow", "1", server.WithToolCapabilities(false))
	started := make(chan struct{}, 1)
	s.AddTool(mcp.NewTool("wait"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		started <- struct{}{}
		<-ctx.Done() // until the server cancels it (or the test ends)
		return nil, ctx.Err()
	})
	next := server.NewStreamableHTTPServer(s)
	var mu sync.Mutex
	var callID json.RawMessage
	cancelled := make(chan json.RawMessage, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				RequestID json.RawMessage `json:"requestId"`
			} `json:"params"`
		}
		_ = json.Unmarshal(body, &msg)
		switch msg.Method {
		case "server/discover": // an older server: it does not know the method
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: Server not initialized"}}`)
			return
		case "tools/call":
			mu.Lock()
			callID = msg.ID
			mu.Unlock()
		case "notifications/cancelled":
			cancelled <- msg.Params.RequestID
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)

	c := open(t, httpCfg(srv.URL), Options{})
	if v := c.Init().ProtocolVersion; v >= mcp.ProtocolVersion20260728 {
		t.Fatalf("negotiated %s; the test needs an older protocol", v)
	}
	cancelWait(t, c, started, cancelled, func() json.RawMessage {
		mu.Lock()
		defer mu.Unlock()
		return callID
	})
}

// cancelWait calls the tool "wait", cancels the call once the server has
// it, and requires the call to end and notifications/cancelled to reach the
// server naming the call's id (it blocks, and the test times out, if that
// never comes).
func cancelWait(t *testing.T, c *Conn, started <-chan struct{}, cancelled <-chan json.RawMessage, callID func() json.RawMessage) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	errc := make(chan error, 1)
	go func() {
		req := mcp.CallToolRequest{}
		req.Params.Name = "wait"
		_, err := c.Client().CallTool(ctx, req)
		errc <- err
	}()
	<-started
	cancel()
	if err := <-errc; err == nil {
		t.Fatal("the cancelled call succeeded")
	}
	if got, want := <-cancelled, callID(); !bytes.Equal(got, want) {
		t.Errorf("notifications/cancelled names request %s, the call was %s", got, want)
	}
}

// TestCancelledCallIsCancelledOnTheServerOverSSE: the same over legacy
// SSE, where mcp-go sends nothing either.
func TestCancelledCallIsCancelledOnTheServerOverSSE(t *testing.T) {
	s := server.NewMCPServer("slow", "1", server.WithToolCapabilities(false))
	started := make(chan struct{}, 1)
	// mcp-go's SSE server may end the handler's context only after the test
	// (the cancellation travels on its own goroutine): the handler also
	// ends with the test, so goleak never sees it waiting.
	testDone := make(chan struct{})
	s.AddTool(mcp.NewTool("wait"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		started <- struct{}{}
		select {
		case <-ctx.Done():
		case <-testDone:
		}
		return nil, ctx.Err()
	})
	var mu sync.Mutex
	var callID json.RawMessage
	cancelled := make(chan json.RawMessage, 1)
	var next http.Handler
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			var msg struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
				Params struct {
					RequestID json.RawMessage `json:"requestId"`
				} `json:"params"`
			}
			_ = json.Unmarshal(body, &msg)
			switch msg.Method {
			case "tools/call":
				mu.Lock()
				callID = msg.ID
				mu.Unlock()
			case "notifications/cancelled":
				cancelled <- msg.Params.RequestID
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		next.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(testDone) })
	next = server.NewSSEServer(s, server.WithBaseURL(srv.URL))

	c := open(t, model.ServerConfig{Type: model.TransportSSE, URL: srv.URL + "/sse"}, Options{})
	cancelWait(t, c, started, cancelled, func() json.RawMessage {
		mu.Lock()
		defer mu.Unlock()
		return callID
	})
}
