package engine

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/model"
)

// listeningServer is a loopback streamable HTTP server speaking 2026-07-28
// only. listening is closed once the server wrote the first message of a
// subscriptions/listen stream (its acknowledgement): from then on the
// server delivers list changes to the client.
type listeningServer struct {
	mcp       *server.MCPServer
	http      *httptest.Server
	listening chan struct{}
	once      sync.Once
}

func newListeningServer(t *testing.T) *listeningServer {
	t.Helper()
	l := &listeningServer{listening: make(chan struct{})}
	l.mcp = server.NewMCPServer("modern", "1", server.WithToolCapabilities(true))
	l.mcp.AddTool(mcp.NewTool("first"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("1"), nil
	})
	next := server.NewStreamableHTTPServer(l.mcp, server.WithStreamableHTTPProtocolVersions(mcp.ProtocolVersion20260728))
	l.http = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get(mcp.HeaderMethod) == string(mcp.MethodSubscriptionsListen) {
			w = &firstWrite{ResponseWriter: w, seen: func() { l.once.Do(func() { close(l.listening) }) }}
		}
		next.ServeHTTP(w, r)
	}))
	t.Cleanup(l.kill)
	return l
}

// awaitListening waits until the client's listen stream is established.
func (l *listeningServer) awaitListening(t *testing.T) {
	t.Helper()
	select {
	case <-l.listening:
	case <-time.After(20 * time.Second):
		t.Fatal("the client opened no subscriptions/listen stream")
	}
}

// kill drops every connection and stops accepting new ones.
func (l *listeningServer) kill() {
	l.http.CloseClientConnections()
	l.http.Close()
}

// firstWrite calls seen after the first body write has been flushed.
type firstWrite struct {
	http.ResponseWriter
	seen  func()
	wrote bool
}

func (w *firstWrite) Write(p []byte) (int, error) {
	w.wrote = true
	return w.ResponseWriter.Write(p)
}

func (w *firstWrite) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
	if w.wrote {
		w.seen()
	}
}

// TestIntegrationModernHTTPListChangedRefetches: on a 2026-07-28 session
// (no GET stream) a tools/list_changed sent while no call is in flight still
// makes the engine refetch the tools.
func TestIntegrationModernHTTPListChangedRefetches(t *testing.T) {
	l := newListeningServer(t)
	e := realEngine(t, map[string]any{"m": map[string]any{"type": "http", "url": l.http.URL}}, nil, nil)
	if err := e.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	s := await(t, e, "m", "connected", inState(model.StateConnected))
	if s.ProtocolVersion != mcp.ProtocolVersion20260728 || len(s.Tools) != 1 {
		t.Fatalf("protocol %q tools %v", s.ProtocolVersion, s.Tools)
	}
	l.awaitListening(t)
	l.mcp.AddTool(mcp.NewTool("second"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("2"), nil
	})
	await(t, e, "m", "refetched tools", func(s ServerSnapshot) bool { return len(s.Tools) == 2 })
}

// TestIntegrationModernHTTPServerGoneNoticedWithoutCall: a 2026-07-28
// server that goes away between calls is noticed through the failing listen
// stream, without a call.
func TestIntegrationModernHTTPServerGoneNoticedWithoutCall(t *testing.T) {
	l := newListeningServer(t)
	e := realEngine(t, map[string]any{"m": map[string]any{"type": "http", "url": l.http.URL}}, nil, nil)
	if err := e.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	await(t, e, "m", "connected", inState(model.StateConnected))
	l.awaitListening(t)
	l.kill()
	s := await(t, e, "m", "loss noticed", func(s ServerSnapshot) bool { return s.State != model.StateConnected })
	t.Logf("state %s error %q", s.State, s.Error)
}
