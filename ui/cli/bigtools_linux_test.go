package cli

import (
	"encoding/json"
	"io"
	"syscall"
	"testing"
)

// BenchmarkHugeToolsList runs `mcpdeck tools --json` on a server listing
// 10 000 tools of 2.5 KB each in one 26 MB tools/list answer, and reports
// mcpdeck's own peak memory (maximum resident set size of the process; the
// server is a child of it but its memory is not counted: RUSAGE_SELF of the
// mcpdeck process as the kernel reports it to its parent covers only it).
func BenchmarkHugeToolsList(b *testing.B) {
	e := newCLIEnv(b)
	fault := buildFaultServer(b, b.TempDir())
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"big": map[string]any{
		"command": fault, "args": []string{"-tools", "10000", "-desc-bytes", "2500", "-one-page", "-plain-desc"},
	}}})
	var peak int64
	for b.Loop() {
		cmd := e.command("--mcp-config", string(cfg), "tools", "big", "--json")
		cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			peak = max(peak, ru.Maxrss) // KB on Linux
		}
	}
	b.ReportMetric(float64(peak)/1024, "peak-MB")
}
