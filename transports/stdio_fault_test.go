package transports

import (
	"context"
	"errors"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/model"
)

func TestStdioExitDetectedWithCodeAndTail(t *testing.T) {
	c := open(t, stdioCfg("-exit-after", "100ms", "-exit-code", "2"), Options{})
	select {
	case <-c.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("exit not detected")
	}
	var exit *ExitError
	if !errors.As(c.Err(), &exit) {
		t.Fatalf("Err = %v, want *ExitError", c.Err())
	}
	if exit.Code != 2 || exit.StderrReason() != "exiting with code 2 as asked" {
		t.Fatalf("exit = %+v", exit)
	}
	if Classify(c.Err()) != ClassExited {
		t.Fatalf("class %v", Classify(c.Err()))
	}
	want := "the server process exited with code 2: exiting with code 2 as asked"
	if got := Humanize(c.Err()); got != want {
		t.Fatalf("Humanize = %q", got)
	}
	if _, err := call(t.Context(), c, "echo", map[string]any{"text": "x"}); Classify(err) != ClassExited {
		t.Fatalf("call after exit: %v (%v)", err, Classify(err))
	}
}

func TestStdioCrashMidCall(t *testing.T) {
	c := open(t, stdioCfg(), Options{})
	_, err := call(t.Context(), c, "crash", map[string]any{"code": 7})
	if Classify(err) != ClassExited {
		t.Fatalf("err = %v, class %v", err, Classify(err))
	}
	<-c.Done()
	if got := Humanize(c.Err()); got != "the server process exited with code 7: crashing with code 7" {
		t.Fatalf("Humanize = %q", got)
	}
}

func TestStdioCloseIsQuickForWellBehavedServer(t *testing.T) {
	c := open(t, stdioCfg(), Options{})
	start := time.Now()
	if err := c.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 300*time.Millisecond {
		t.Fatalf("Close took %s", d)
	}
}

func TestStdioStderrFloodStaysBounded(t *testing.T) {
	logDir := t.TempDir()
	mb := "100"
	if testing.Short() {
		mb = "20"
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	// the flood runs before the server answers initialize: no deadline of
	// the test's own on that (it took over 20 s under make test's load)
	c := openCtx(t, t.Context(), stdioCfg("-stderr-mb", mb), Options{LogDir: logDir})
	// wait for our reader
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for !slices.Contains(c.StderrTail(5), "stderr flood done") {
		select {
		case <-tick.C:
		case <-t.Context().Done():
			t.Fatal("flood not consumed")
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if grown := int64(after.HeapInuse) - int64(before.HeapInuse); grown > 16<<20 {
		t.Fatalf("heap grew by %d MB while %s MB of stderr streamed through", grown>>20, mb)
	}
	lines, bytes := c.stderr.(*stdioTransport).ring.size()
	if lines > stderrMaxLines || bytes > stderrMaxBytes {
		t.Fatalf("ring holds %d lines, %d bytes", lines, bytes)
	}
	if c.LogPath() != LogPath(logDir, t.Name()) || c.LogPath() == "" {
		t.Fatalf("LogPath = %q", c.LogPath())
	}
	st, err := os.Stat(c.LogPath())
	if err != nil || st.Size() > logRotateBytes {
		t.Fatalf("log file: %v, %v", st, err)
	}
	if _, err := os.Stat(c.LogPath() + ".1"); err != nil {
		t.Fatalf("no rotated log: %v", err)
	}
	mustCall(t, c, "echo", map[string]any{"text": "still alive"})
}

func TestStdioMalformedOutputIsProtocolError(t *testing.T) {
	_, err := NewFactory().Open(t.Context(), "bad", stdioCfg("-malformed-first"), Options{})
	if Classify(err) != ClassProtocol || !errors.Is(err, ErrProtocol) {
		t.Fatalf("err = %v, class %v", err, Classify(err))
	}
	if !strings.Contains(Humanize(err), "not valid MCP") {
		t.Fatalf("Humanize = %q", Humanize(err))
	}

	c := open(t, stdioCfg(), Options{})
	_, _ = call(t.Context(), c, "malformed", nil)
	<-c.Done()
	if !errors.Is(c.Err(), ErrProtocol) {
		t.Fatalf("Err = %v", c.Err())
	}
}

func TestStdioCommandNotFound(t *testing.T) {
	_, err := NewFactory().Open(t.Context(), "x", model.ServerConfig{Command: "mcpdeck-no-such-command"}, Options{})
	if Classify(err) != ClassTerminal {
		t.Fatalf("class %v for %v", Classify(err), err)
	}
	if got := Humanize(err); got != `command "mcpdeck-no-such-command" not found on PATH` {
		t.Fatalf("Humanize = %q", got)
	}
}

func TestStdioHangingInitializeTimesOut(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := NewFactory().Open(ctx, "hang", stdioCfg("-hang-init"), Options{})
	if Classify(err) != ClassTimeout {
		t.Fatalf("err = %v, class %v", err, Classify(err))
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("Open took %s", d)
	}
	var e *Error
	if !errors.As(err, &e) || len(e.StderrTail) == 0 {
		t.Fatalf("no stderr tail in %#v", err)
	}
}

func TestStdioHangingCallHonoursContext(t *testing.T) {
	c := open(t, stdioCfg(), Options{})
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	if _, err := call(ctx, c, "hang", nil); Classify(err) != ClassTimeout {
		t.Fatalf("err = %v, class %v", err, Classify(err))
	}
	mustCall(t, c, "echo", map[string]any{"text": "after hang"})
}

func TestStdioNotificationFlood(t *testing.T) {
	rec := newRecorder()
	c := open(t, stdioCfg(), Options{OnNotification: rec.on})
	mustCall(t, c, "flood", map[string]any{"count": 5000})
	rec.waitCount(t, "notifications/message", 5000)
	mustCall(t, c, "echo", map[string]any{"text": "still answering"})
}

func TestStdioDropIsConnectionLost(t *testing.T) {
	c := open(t, stdioCfg(), Options{})
	_, err := call(t.Context(), c, "drop", nil)
	if err == nil {
		t.Fatal("call survived a dropped connection")
	}
	<-c.Done()
	if !errors.Is(c.Err(), ErrConnectionLost) || Classify(c.Err()) != ClassTransient {
		t.Fatalf("Err = %v", c.Err())
	}
}

func TestStdioManyToolsWithControlCharacters(t *testing.T) {
	if testing.Short() {
		t.Skip("large listing")
	}
	c := open(t, stdioCfg("-tools", "10000", "-desc-kb", "2"), Options{})
	res, err := c.Client().ListTools(t.Context(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) < 10000 {
		t.Fatalf("%d tools", len(res.Tools))
	}
	found := false
	for _, tool := range res.Tools {
		if tool.Name == "tool_09999" {
			found = strings.Contains(tool.Description, "\x1b[31m") && len(tool.Description) >= 2000
		}
	}
	if !found {
		t.Fatal("tool_09999 missing or description altered")
	}
}

// TestStdioOversizedMessageAtTheDefaultLimit: the default limit is 32 MB
// and going over it costs no more than the limit in memory.
func TestStdioOversizedMessageAtTheDefaultLimit(t *testing.T) {
	c := open(t, stdioCfg(), Options{})
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, _ = call(t.Context(), c, "huge", map[string]any{"mb": 40})
	<-c.Done()
	if !errors.Is(c.Err(), ErrMessageTooLarge) || !strings.Contains(Humanize(c.Err()), "larger than 32 MB") {
		t.Fatalf("Err = %v", c.Err())
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if grown := int64(after.HeapInuse) - int64(before.HeapInuse); grown > 48<<20 {
		t.Fatalf("heap grew by %d MB", grown>>20)
	}
}

// TestStdioCancelledWriteLeavesNoDeadline: a request whose context ends
// while it is being written must not leave the pipe's write deadline set
// for the next one: the deadline that interrupts a write is set on another
// goroutine, which may run after the write returned.
func TestStdioCancelledWriteLeavesNoDeadline(t *testing.T) {
	c := open(t, stdioCfg(), Options{})
	for i := range 500 {
		ctx, cancel := context.WithCancel(t.Context())
		go cancel() // at some point of the write, or before or after it
		_, _ = call(ctx, c, "echo", map[string]any{"text": "maybe"})
		if got := mustCall(t, c, "echo", map[string]any{"text": "next"}); got != "next" {
			t.Fatalf("round %d: %q", i, got)
		}
	}
}

// TestStdioTellsTheStartedProcess: Options.Started hears the server's
// process id before the handshake (the engine's start-up gate watches it).
func TestStdioTellsTheStartedProcess(t *testing.T) {
	var pids []int
	c := open(t, stdioCfg(), Options{Started: func(pid int) { pids = append(pids, pid) }})
	if len(pids) != 1 || pids[0] != c.PID() || pids[0] == 0 {
		t.Fatalf("Started heard %v, the connection's process is %d", pids, c.PID())
	}
}
