package engine

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/model"
)

func logNote(level string, data any) mcp.JSONRPCNotification {
	n := mcp.JSONRPCNotification{}
	n.Method = string(mcp.MethodNotificationMessage)
	n.Params.AdditionalFields = map[string]any{"level": level, "logger": "srv", "data": data}
	return n
}

// TestLogMessagesAreKeptBoundedAndCounted: a server's log messages reach
// its snapshot (one copy per 200 ms however chatty it is), at most 1 000
// of them, each at most 4 KB; errors and above are counted; OnLog sees
// every one as it arrives.
func TestLogMessagesAreKeptBoundedAndCounted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := newFakeNet()
		n.servers["s"] = demoServer
		e := newTestEngine(t, n, stdioServer("s"))
		var seen int
		e.opts.OnLog = func(server string, l LogEntry) { seen++ }
		mustStart(t, e)
		synctest.Wait() // start-up settled: its listing scanned and published
		before := e.Snapshot().Seq
		for i := range 1200 {
			level := "info"
			if i%100 == 0 {
				level = "error"
			}
			e.logs.onMessage("s", logNote(level, fmt.Sprint("message ", i)))
		}
		e.logs.onMessage("s", logNote("nonsense", map[string]any{"big": strings.Repeat("x", 10000)}))
		time.Sleep(logPublish)
		synctest.Wait()
		s := current(t, e, "s")
		if len(s.Logs) != maxLogEntries || s.Logs[0].Data != "message 201" || seen != 1201 {
			t.Fatalf("%d entries, first %q, OnLog saw %d", len(s.Logs), s.Logs[0].Data, seen)
		}
		last := s.Logs[len(s.Logs)-1]
		if last.Level != "info" || len(last.Data) > maxLogData+len("…") || !strings.HasPrefix(last.Data, `{"big":"xxx`) {
			t.Errorf("last entry: level %q, %d bytes", last.Level, len(last.Data))
		}
		if s.LogErrors != 12 {
			t.Errorf("LogErrors = %d, want 12", s.LogErrors)
		}
		if got := e.Snapshot().Seq - before; got > 2 {
			t.Errorf("%d snapshots for one burst of 1 201 messages", got)
		}
	})
}

// TestLogLevelTravelsWithEachRequestOn20260728: the protocol has no
// logging/setLevel; the level the person chose goes in every request's
// _meta instead, once chosen.
func TestLogLevelTravelsWithEachRequestOn20260728(t *testing.T) {
	e := askingEngine(t, newAskingServer(t), nil)
	level := func() string {
		t.Helper()
		res, err := e.CallTool(t.Context(), "s", "level", nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		return text(res)
	}
	if got := level(); got != "level=" {
		t.Fatalf("before choosing: %q", got)
	}
	if err := e.SetLogLevel(t.Context(), "s", "error"); err != nil {
		t.Fatal(err)
	}
	if got := level(); got != "level=error" {
		t.Fatalf("after choosing error: %q", got)
	}
}

// TestLogLevelIsSetAgainAfterAReconnect: a new session starts at the
// server's default level, so the level the person chose is sent again.
func TestLogLevelIsSetAgainAfterAReconnect(t *testing.T) {
	levels := make(chan string, 4)
	hooks := &server.Hooks{}
	hooks.AddBeforeAny(func(_ context.Context, _ any, method mcp.MCPMethod, msg any) {
		if r, ok := msg.(*mcp.SetLevelRequest); ok && method == mcp.MethodSetLogLevel {
			levels <- string(r.Params.Level)
		}
	})
	s := server.NewMCPServer("logs", "1", server.WithLogging(), server.WithHooks(hooks))
	h := httptest.NewServer(server.NewStreamableHTTPServer(s))
	t.Cleanup(h.Close)
	e := realEngine(t, map[string]any{"l": map[string]any{"type": "http", "url": h.URL, "protocolVersion": "2025-11-25"}}, nil, nil)
	if err := e.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	await(t, e, "l", "connected", inState(model.StateConnected))
	if err := e.SetLogLevel(t.Context(), "l", "warning"); err != nil {
		t.Fatal(err)
	}
	if got := <-levels; got != "warning" {
		t.Fatalf("set %q", got)
	}
	if err := e.Reconnect(t.Context(), "l"); err != nil {
		t.Fatal(err)
	}
	select {
	case got := <-levels:
		if got != "warning" {
			t.Fatalf("after reconnect: set %q", got)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the level was not set again after the reconnect")
	}
}
