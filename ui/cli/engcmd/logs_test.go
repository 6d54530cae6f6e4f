package engcmd

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/testdata/clitest"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliout"
	"github.com/mcpdeck/mcpdeck/ui/cli/clisession"
)

// TestServerLogMessagesOnStderr: a server's log messages go to stderr at or
// above --log-level (warning by default), one sanitized line each. The
// engine hands every message to OnLog (engine.TestLogMessagesAreKept…);
// the line is checked here directly, since a test server's notifications
// may reach the client after the call they came with has ended.
func TestServerLogMessagesOnStderr(t *testing.T) {
	var out strings.Builder
	g := &clicore.Globals{Stderr: cliout.NewTerminalWriter(&out), LogLevel: "warning"}
	f := clisession.NewEngineFlags(g)
	f.PrintLog("f", engine.LogEntry{Level: "info", Data: "quiet"})
	f.PrintLog("f", engine.LogEntry{Level: "error", Logger: "db", Data: "broken\x1b[2J\nsecond line"})
	if got := out.String(); got != "f error: db: broken second line\n" {
		t.Errorf("at warning: %q", got)
	}
	out.Reset()
	g.LogLevel = "off"
	f.PrintLog("f", engine.LogEntry{Level: "emergency", Data: "x"})
	if out.Len() != 0 {
		t.Errorf("--log-level off printed %q", out.String())
	}
	e := clitest.NewEnv(t)
	fault := clitest.BuildFaultServer(t, t.TempDir())
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"f": map[string]any{"command": fault}}})
	if r := e.OK("--mcp-config", string(cfg), "call", "f", "flood", `{"count":3}`); strings.Contains(r.Stderr, "f info:") {
		t.Errorf("info messages printed at the default level (warning):\n%s", r.Stderr)
	}
	e.Fails(2, "--log-level", "loud", "mcp", "list")
}

// TestLogsCommand: `mcpdeck logs SERVER` connects that server, prints
// nothing on stdout (messages go to stderr), and refuses an unknown level.
// A server that logged nothing is said to have, with how to see more, and
// the command still succeeds (exit 0, as `kubectl logs` of a quiet pod).
func TestLogsCommand(t *testing.T) {
	e := clitest.NewEnv(t)
	cfg := clitest.EngServers(t, nil)
	r := e.OK("--mcp-config", cfg, "logs", "calc") // no --follow: connect, print what came, stop
	if r.Stdout != "" {
		t.Errorf("logs printed on stdout: %q", r.Stdout)
	}
	if want := "mcpdeck: calc sent no log messages at info or above while connecting: --level debug shows more, --follow waits for new ones.\n"; r.Stderr != want {
		t.Errorf("logs of a quiet server: stderr %q, want %q", r.Stderr, want)
	}
	e.Fails(2, "--mcp-config", cfg, "logs", "calc", "--level", "loud")
}

// TestNoLogsSaysHowToSeeMore: the note names the level, how many messages
// it hid and the flag that shows them; at debug only --follow is left.
func TestNoLogsSaysHowToSeeMore(t *testing.T) {
	for _, tc := range []struct {
		level string
		below int
		want  string
	}{
		{"info", 0, "s sent no log messages at info or above while connecting: --level debug shows more, --follow waits for new ones."},
		{"error", 1, "s sent no log messages at error or above while connecting (1 below it): --level debug shows it, --follow waits for new ones."},
		{"warning", 3, "s sent no log messages at warning or above while connecting (3 below it): --level debug shows them, --follow waits for new ones."},
		{"debug", 0, "s sent no log messages while connecting: --follow waits for new ones."},
	} {
		if got := noLogs("s", tc.level, tc.below); got != tc.want {
			t.Errorf("noLogs(%s, %d) = %q, want %q", tc.level, tc.below, got, tc.want)
		}
	}
	var out strings.Builder
	f := clisession.NewEngineFlags(&clicore.Globals{Stderr: &out, LogLevel: "warning"})
	f.PrintLog("s", engine.LogEntry{Level: "info", Data: "hidden"})
	f.PrintLog("s", engine.LogEntry{Level: "error", Data: "shown"})
	if printed, below := f.LogsSeen(); printed != 1 || below != 1 {
		t.Errorf("LogsSeen = %d printed, %d below; want 1 and 1", printed, below)
	}
}

// TestSamplingFromTheCLI: without a command, a server's sampling request is
// declined and stderr says how to reply; --sampling-command replies with the
// command's output.
func TestSamplingFromTheCLI(t *testing.T) {
	e := clitest.NewEnv(t)
	fault := clitest.BuildFaultServer(t, t.TempDir())
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"f": map[string]any{"command": fault}}})
	r := e.Fails(1, "--mcp-config", string(cfg), "call", "f", "sample", `{"prompt":"say hi"}`)
	if !strings.Contains(r.Stderr, `server f asked for a model's reply ("say hi"), and mcpdeck declined: pass --sampling-command CMD`) {
		t.Errorf("the decline is not explained:\n%s", r.Stderr)
	}
	r = e.OK("--mcp-config", string(cfg), "--sampling-command", "cat >/dev/null; echo hi there", "call", "f", "sample", `{"prompt":"say hi"}`)
	if !strings.Contains(r.Stdout, "command: hi there") {
		t.Errorf("the command's reply did not reach the server:\n%s\n%s", r.Stdout, r.Stderr)
	}
}

// TestLogsWaitsForTheServerToGoQuiet: a server that logs a moment after
// the level is set (as server-everything does once it has the client's
// roots) has that line printed by `logs`, not "no log messages", which the
// TUI's Logs tab would contradict a moment later.
func TestLogsWaitsForTheServerToGoQuiet(t *testing.T) {
	e := clitest.NewEnv(t)
	fault := clitest.BuildFaultServer(t, t.TempDir())
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"f": map[string]any{"command": fault, "args": []string{"-log-after-level", "50ms"}}}})
	r := e.OK("--mcp-config", string(cfg), "logs", "f")
	if !strings.Contains(r.Stderr, "f info: start: told 50ms after the level was set") || strings.Contains(r.Stderr, "no log messages") {
		t.Errorf("logs missed the line the server sent after the level was set:\n%s", r)
	}
}
