package engcmd

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// BenchmarkHugeToolsList runs `mcpdeck tools --json` on a server listing
// 10 000 tools of 2.5 KB each in one 26 MB tools/list answer, and reports
// mcpdeck's own peak memory: the high-water mark of its resident set
// (VmHWM), read every millisecond while it runs. The process's rusage would
// not do: a child's ru_maxrss covers the descendants it reaped too, here
// the server, which holds the 26 MB answer several times over.
func BenchmarkHugeToolsList(b *testing.B) {
	e := clitest.NewEnv(b)
	fault := clitest.BuildFaultServer(b, b.TempDir())
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"big": map[string]any{
		"command": fault, "args": []string{"-tools", "10000", "-desc-bytes", "2500", "-one-page", "-plain-desc"},
	}}})
	var peak int64
	for b.Loop() {
		cmd := e.Command("--mcp-config", string(cfg), "tools", "big", "--json")
		cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		p := watchPeak(cmd.Process.Pid, done, b)
		peak = max(peak, p)
	}
	b.ReportMetric(float64(peak)/1024, "peak-MB")
}

// watchPeak reads pid's VmHWM (KB) every millisecond until done delivers
// the process's end, and returns the last value read.
func watchPeak(pid int, done <-chan error, b *testing.B) int64 {
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	path := "/proc/" + strconv.Itoa(pid) + "/status"
	var hwm int64
	for {
		select {
		case err := <-done:
			if err != nil {
				b.Fatal(err)
			}
			return hwm
		case <-tick.C:
			status, err := os.ReadFile(path)
			if err != nil {
				continue
			}
			if _, rest, ok := bytes.Cut(status, []byte("VmHWM:")); ok {
				line, _, _ := bytes.Cut(rest, []byte("\n"))
				v, err := strconv.ParseInt(string(bytes.Fields(line)[0]), 10, 64)
				if err == nil {
					hwm = max(hwm, v)
				}
			}
		}
	}
}
