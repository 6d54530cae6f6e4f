//go:build linux

package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// TestTUIEndsOnSignals: SIGTERM, SIGHUP (its terminal closed) and SIGINT
// end the TUI the orderly way: it exits, its servers are stopped, and the
// daemon one of them left behind is gone too. (With Bubble Tea's own
// signal handler beside mcpdeck's, the TUI could hang on exit.)
func TestTUIEndsOnSignals(t *testing.T) {
	bin := clitest.BuildFaultServer(t, t.TempDir())
	// Twenty servers, as a person has: more for the TUI to stop, and
	// more goroutines about when the signal comes.
	servers := map[string]any{"d": map[string]any{"command": bin, "args": []string{"-daemonize"}}}
	for i := range 19 {
		servers["s"+strconv.Itoa(i)] = map[string]any{"command": bin}
	}
	cfg, _ := json.Marshal(map[string]any{"mcpServers": servers})
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT} {
		for round := range 2 {
			t.Run(sig.String()+"/"+strconv.Itoa(round), func(t *testing.T) {
				e := clitest.NewEnv(t)
				tui := startPTYTUI(t, e, regexp.MustCompile(`20 connected`), "--mcp-config", string(cfg))
				tui.waitShown(2 * time.Minute)
				idle(tui.pid, time.Minute) // at rest, as when a person closes it
				daemon := daemonInLog(t, filepath.Join(e.Home, ".cache", "mcpdeck", "logs"))
				if !tui.exitsOn(sig, time.Minute) {
					t.Fatalf("the TUI did not exit on %v; it showed:\n%s", sig, tui.screen.tail())
				}
				awaitNoProcess(t, daemon)
			})
		}
	}
}

// daemonInLog is the pid a faultserver -daemonize logged ("daemon pid
// N") in the log of server d under dir.
func daemonInLog(t *testing.T, dir string) int {
	t.Helper()
	logs, _ := filepath.Glob(filepath.Join(dir, "d-*.log"))
	if len(logs) != 1 {
		t.Fatalf("server d's log in %s: %v", dir, logs)
	}
	b, err := os.ReadFile(logs[0])
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`daemon pid (\d+)`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("no daemon pid in the server's log:\n%s", b)
	}
	pid, _ := strconv.Atoi(string(m[1]))
	return pid
}
