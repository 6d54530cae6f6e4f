package transports

import (
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/platform"
)

func TestStdioExercise(t *testing.T) {
	rec := newRecorder()
	c := open(t, stdioCfg(), fullOpts(rec))
	exercise(t, c, rec, true)
	if c.PID() == 0 {
		t.Fatal("no pid")
	}
}

func TestStdioEnvMergedAndCwd(t *testing.T) {
	dir := t.TempDir()
	cfg := stdioCfg()
	cfg.Env = map[string]string{"MCPDECK_TEST_VAR": "from-config"}
	cfg.Cwd = dir
	c := open(t, cfg, Options{})
	if got := mustCall(t, c, "env", map[string]any{"name": "MCPDECK_TEST_VAR"}); got != "from-config" {
		t.Fatalf("config env = %q", got)
	}
	if got := mustCall(t, c, "env", map[string]any{"name": "PATH"}); got != os.Getenv("PATH") {
		t.Fatalf("parent env not inherited: PATH = %q", got)
	}
	if got := mustCall(t, c, "cwd", nil); got != dir {
		t.Fatalf("cwd = %q, want %q", got, dir)
	}
}

func TestStdioOldServerConnectsWithoutDiscoveryWait(t *testing.T) {
	for _, v := range []string{"2025-06-18", "2025-03-26"} {
		t.Run(v, func(t *testing.T) {
			// This server ignores server/discover: mcp-go's probe would wait
			// for it. The version remembered from an earlier connect skips
			// the probe.
			start := time.Now()
			c := open(t, stdioCfg("-old-protocol", v), Options{ProtocolVersion: v})
			if got := c.Init().ProtocolVersion; got != v {
				t.Fatalf("negotiated %q, want %q", got, v)
			}
			if d := time.Since(start); d > 3*time.Second {
				t.Fatalf("connect took %s", d)
			}
		})
	}
}

func TestStdioExitDuringInitialize(t *testing.T) {
	line := "echo 'Error: API_KEY is not set' >&2; exit 4"
	if runtime.GOOS == "windows" {
		line = "echo Error: API_KEY is not set 1>&2 & exit 4"
	}
	shell, args := platform.Shell(line)
	cfg := model.ServerConfig{Command: shell, Args: args}
	_, err := NewFactory().Open(t.Context(), "dies", cfg, Options{})
	if Classify(err) != ClassExited {
		t.Fatalf("err = %v, class %v", err, Classify(err))
	}
	if got := Humanize(err); got != "the server process exited with code 4: Error: API_KEY is not set" {
		t.Fatalf("Humanize = %q", got)
	}
}

func TestUnknownTransport(t *testing.T) {
	_, err := NewFactory().Open(t.Context(), "odd", model.ServerConfig{Type: "carrier-pigeon"}, Options{})
	if Classify(err) != ClassTerminal || !strings.Contains(Humanize(err), "carrier-pigeon") {
		t.Fatalf("%v (%v): %s", err, Classify(err), Humanize(err))
	}
}

func TestProtocolVersionPerServerOverride(t *testing.T) {
	cfg := stdioCfg()
	cfg.ProtocolVersion = "2025-06-18"
	c := open(t, cfg, Options{ProtocolVersion: "2025-03-26"})
	if got := c.Init().ProtocolVersion; got != "2025-06-18" {
		t.Fatalf("negotiated %q, want the server's own setting 2025-06-18 over Options' 2025-03-26", got)
	}
	if got := open(t, stdioCfg(), Options{}).Init().ProtocolVersion; got != "2025-11-25" {
		t.Fatalf("default: negotiated %q with a 2025-11-25 server", got)
	}
}
