//go:build linux

package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// BenchmarkTUIAtRest runs the real TUI in a 120×40 terminal with 20 stdio
// servers (faultserver, 20 tools each) until all are connected, their
// tokens counted and the process idle, then reports its memory:
// rss-MB (resident), anon-MB (resident and not from a file: the heap,
// stacks and runtime, without the binary's pages) and peak-MB (the
// highest resident size, during the start). The target at rest is 40 MB.
// A memory figure, not a pass/fail line:
//
//	go test -run '^$' -bench TUIAtRest -benchtime 3x ./ui/cli/
func BenchmarkTUIAtRest(b *testing.B) {
	e := clitest.NewEnv(b)
	fault := clitest.BuildFaultServer(b, b.TempDir())
	servers := map[string]any{}
	for i := range 20 {
		servers[fmt.Sprintf("s%02d", i)] = map[string]any{"command": fault}
	}
	cfg, _ := json.Marshal(map[string]any{"mcpServers": servers})
	var rss, anon, peak float64
	for b.Loop() {
		m := tuiAtRest(b, e, string(cfg), 20)
		rss += float64(m["VmRSS:"]) / 1024
		anon += float64(m["RssAnon:"]) / 1024
		peak += float64(m["VmHWM:"]) / 1024
	}
	n := float64(b.N)
	b.ReportMetric(rss/n, "rss-MB")
	b.ReportMetric(anon/n, "anon-MB")
	b.ReportMetric(peak/n, "peak-MB")
}

// tuiAtRest starts the TUI, waits until its header counts connected
// servers and it used no CPU for a second (the counts and the start's
// work are over), reads /proc/PID/status (sizes in kB) and ends it.
func tuiAtRest(b *testing.B, e *clitest.Env, cfg string, connected int) map[string]int {
	b.Helper()
	tui := startPTYTUI(b, e, regexp.MustCompile(strconv.Itoa(connected)+` connected`), "--mcp-config", cfg)
	defer tui.stop()
	tui.waitShown(2 * time.Minute)
	if !idle(tui.pid, time.Minute) {
		b.Fatal("the TUI kept using CPU for a minute after connecting")
	}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", tui.pid))
	if err != nil {
		b.Fatal(err)
	}
	out := map[string]int{}
	for line := range strings.Lines(string(status)) {
		if f := strings.Fields(line); len(f) == 3 && f[2] == "kB" {
			out[f[0]], _ = strconv.Atoi(f[1])
		}
	}
	return out
}

// idle waits until the process used at most one clock tick (10 ms) of CPU
// in a second, at most for limit.
func idle(pid int, limit time.Duration) bool {
	ticks := func() int {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return -1
		}
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		u, _ := strconv.Atoi(f[11])
		s, _ := strconv.Atoi(f[12])
		return u + s
	}
	prev := ticks()
	for end := time.Now().Add(limit); time.Now().Before(end); {
		time.Sleep(time.Second) // sampling CPU time, in a benchmark
		now := ticks()
		if now < 0 {
			return false
		}
		if now-prev <= 1 {
			return true
		}
		prev = now
	}
	return false
}
