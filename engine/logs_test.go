package engine

import (
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
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
		before := e.Snapshot().Seq
		for i := range 1200 {
			level := "info"
			if i%100 == 0 {
				level = "error"
			}
			e.onLogMessage("s", logNote(level, fmt.Sprint("message ", i)))
		}
		e.onLogMessage("s", logNote("nonsense", map[string]any{"big": strings.Repeat("x", 10000)}))
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
