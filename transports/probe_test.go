package transports

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// probes counts the server/discover requests mcpdeck sent.
func (f *frames) probes() int {
	n := 0
	for _, fr := range f.list() {
		if fr.Dir == Sent && fr.Kind == KindRequest && fr.Method == string(mcp.MethodServerDiscover) {
			n++
		}
	}
	return n
}

// starts counts the fault server's starts in its stderr log, once c's own
// process has said it is ready (the log of the starts before it is
// complete when Open returns: their stderr was drained before they failed).
func starts(t *testing.T, c *Conn, logDir string) int {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for !slices.Contains(c.StderrTail(0), "faultserver ready on stdio") {
		select {
		case <-c.StderrChanged():
		case <-deadline:
			t.Fatalf("the server never said it is ready; stderr %q", c.StderrTail(0))
		}
	}
	return logStarts(t, logDir)
}

func logStarts(t *testing.T, logDir string) int {
	t.Helper()
	b, err := os.ReadFile(LogPath(logDir, t.Name()))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b), "faultserver ready on stdio")
}

// TestServerThatDiesOnTheProbeConnects: an older stdio server that exits
// (code 4), or closes its stdout, on server/discover is started once more
// with initialize and connects; offered the version it answered, the next
// start sends no probe.
func TestServerThatDiesOnTheProbeConnects(t *testing.T) {
	for _, flag := range []string{"-die-on-unknown-method", "-close-on-unknown-method"} {
		t.Run(flag, func(t *testing.T) {
			logDir := t.TempDir()
			var sent frames
			opts := Options{OnFrame: sent.on, LogDir: logDir}
			c := open(t, stdioCfg(flag), opts)
			if got := c.Init().ProtocolVersion; got != mcp.ProtocolVersion20251125 {
				t.Fatalf("negotiated %q", got)
			}
			if got := mustCall(t, c, "echo", map[string]any{"text": "old"}); got != "old" {
				t.Fatalf("echo = %q", got)
			}
			if n := sent.probes(); n != 1 {
				t.Fatalf("%d probes, want 1", n)
			}
			if n := starts(t, c, logDir); n != 2 {
				t.Fatalf("the server started %d times, want 2", n)
			}

			opts.ProtocolVersion = c.Init().ProtocolVersion // what the engine remembers
			again := open(t, stdioCfg(flag), opts)
			if got := mustCall(t, again, "echo", map[string]any{"text": "again"}); got != "again" {
				t.Fatalf("echo = %q", got)
			}
			if n := sent.probes(); n != 1 {
				t.Fatalf("the remembered version probed again (%d probes in all)", n)
			}
			if n := starts(t, again, logDir); n != 3 {
				t.Fatalf("the second start started the server %d times, want 1", n-2)
			}
		})
	}
}

// TestServerThatDiesOnInitializeTooFailsWithItsExit: a server that also
// dies on initialize is started twice, no more, and fails with its own
// exit code and stderr; a definition pinning 2026-07-28 is not retried.
func TestServerThatDiesOnInitializeTooFailsWithItsExit(t *testing.T) {
	logDir := t.TempDir()
	var sent frames
	err := openErr(t, stdioCfg("-die-on-unknown-method", "-unknown", "initialize"), Options{OnFrame: sent.on, LogDir: logDir})
	var exit *ExitError
	if !errors.As(err, &exit) || exit.Code != 4 || exit.StderrReason() != "unknown method initialize" {
		t.Fatalf("err = %v (%s), want exit code 4 on initialize", err, Humanize(err))
	}
	if want := "the server process exited with code 4: unknown method initialize"; Humanize(err) != want {
		t.Fatalf("Humanize = %q", Humanize(err))
	}
	if n := logStarts(t, logDir); n != 2 || sent.probes() != 1 {
		t.Fatalf("%d starts, %d probes; want 2 starts and one probe", n, sent.probes())
	}

	t.Run("pinned", func(t *testing.T) {
		logDir := t.TempDir()
		cfg := stdioCfg("-die-on-unknown-method")
		cfg.ProtocolVersion = mcp.ProtocolVersion20260728
		err := openErr(t, cfg, Options{LogDir: logDir})
		if !errors.As(err, &exit) || exit.Code != 4 || exit.StderrReason() != "unknown method server/discover" {
			t.Fatalf("err = %v", err)
		}
		if n := logStarts(t, logDir); n != 1 {
			t.Fatalf("a pinned 2026-07-28 started the server %d times", n)
		}
	})
}

// TestProbeTimeoutIsNotADeath: a server that ignores the probe is not
// restarted; mcp-go's fallback to initialize on the same process serves.
func TestProbeTimeoutIsNotADeath(t *testing.T) {
	logDir := t.TempDir()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	c, err := NewFactory().Open(ctx, t.Name(), stdioCfg("-old-protocol", "2025-06-18"), Options{LogDir: logDir, DiscoverTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = c.Close(context.Background()) }()
	if got := c.Init().ProtocolVersion; got != "2025-06-18" {
		t.Fatalf("negotiated %q", got)
	}
	if n := starts(t, c, logDir); n != 1 {
		t.Fatalf("started %d times", n)
	}
}
