package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the run if a goroutine or a child process outlives the
// tests: every engine was closed, so nothing of theirs may remain.
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 {
		if kids := childProcesses(); len(kids) > 0 {
			fmt.Fprintf(os.Stderr, "e2e: child processes left running: %s\n", strings.Join(kids, ", "))
			code = 1
		}
		if err := goleak.Find(); err != nil {
			fmt.Fprintf(os.Stderr, "e2e: goroutines left running: %v\n", err)
			code = 1
		}
	}
	os.Exit(code)
}

// childProcesses lists live (non-zombie) processes whose parent is us.
func childProcesses() []string {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	me := strconv.Itoa(os.Getpid())
	var out []string
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:]) // state, ppid, ...
		if len(f) > 1 && f[1] == me && f[0] != "Z" {
			out = append(out, s[:i+1])
		}
	}
	return out
}
