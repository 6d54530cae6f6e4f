//go:build linux

package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// TestNoOrphansAfterMcpdeckExits: a stdio server that leaves a daemon
// behind (setsid and a double fork: outside its process group, nobody's
// child) takes it along when mcpdeck exits: after a `call`, and after
// `serve` is ended by SIGTERM.
func TestNoOrphansAfterMcpdeckExits(t *testing.T) {
	e := clitest.NewEnv(t)
	bin := clitest.BuildFaultServer(t, t.TempDir())
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"d": map[string]any{"command": bin, "args": []string{"-daemonize"}},
	}})
	daemonOf := func(t *testing.T, out string) int {
		t.Helper()
		m := regexp.MustCompile(`"daemon":\s*(\d+)`).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("no daemon pid in %q", out)
		}
		pid, _ := strconv.Atoi(m[1])
		if pid == 0 {
			t.Fatalf("the server left no daemon: %q", out)
		}
		return pid
	}

	t.Run("call", func(t *testing.T) {
		r := e.OK("--mcp-config", string(cfg), "call", "d", "pids", "{}")
		awaitNoProcess(t, daemonOf(t, r.Stdout))
	})

	t.Run("serve ended by SIGTERM", func(t *testing.T) {
		cmd := e.Command("--mcp-config", string(cfg), "serve")
		in, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		defer func() {
			_ = cmd.Process.Kill()
			<-exited
		}()
		for _, msg := range []string{
			`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
			`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
			`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"pids","arguments":{}}}`,
		} {
			fmt.Fprintln(in, msg)
		}
		lines := bufio.NewScanner(out)
		lines.Buffer(make([]byte, 64<<10), 1<<20)
		daemon := 0
		for daemon == 0 && lines.Scan() {
			if strings.Contains(lines.Text(), `"id":2`) {
				daemon = daemonOf(t, strings.ReplaceAll(lines.Text(), `\"`, `"`))
			}
		}
		if daemon == 0 {
			t.Fatalf("serve never answered the call: %v", lines.Err())
		}
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		timer := time.NewTimer(30 * time.Second)
		defer timer.Stop()
		select {
		case <-exited:
			exited <- nil // for the deferred cleanup
		case <-timer.C:
			t.Fatal("serve did not exit on SIGTERM")
		}
		awaitNoProcess(t, daemon)
	})
}

// awaitNoProcess waits until pid no longer runs (gone, or a zombie that
// is its reaper's), failing after 10 s: the daemon would sleep forever.
func awaitNoProcess(t *testing.T, pid int) {
	t.Helper()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	deadline := time.NewTimer(10 * time.Second)
	defer deadline.Stop()
	for {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return
		}
		if f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:])); len(f) > 0 && f[0] == "Z" {
			return
		}
		select {
		case <-tick.C:
		case <-deadline.C:
			_ = syscall.Kill(pid, syscall.SIGKILL) // leave nothing behind
			t.Fatalf("process %d outlived mcpdeck", pid)
		}
	}
}
