package mcpcmd

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// TestListShowsProgressOnATerminalAndPrintsInOrder: while a server is still
// starting, a terminal's stderr shows a progress line naming it; the
// results come out in the configuration's order (a-slow before b-fast) even
// though b-fast connected first, and the line is erased before them.
func TestListShowsProgressOnATerminalAndPrintsInOrder(t *testing.T) {
	e := clitest.NewEnv(t)
	gate := filepath.Join(t.TempDir(), "gate")
	if err := syscall.Mkfifo(gate, 0o600); err != nil {
		t.Skip("no FIFOs:", err)
	}
	// a-slow starts only once the test writes to the FIFO.
	slow := "read _ < '" + gate + "'; exec '" + clitest.Binary + "' demo-server calculator"
	servers := map[string]any{"mcpServers": map[string]any{
		"a-slow": map[string]any{"command": "sh", "args": []string{"-c", slow}},
		"b-fast": map[string]any{"command": clitest.Binary, "args": []string{"demo-server", "notes"}},
	}}
	cfg, _ := json.Marshal(servers)

	master, slave := clitest.OpenPTY(t)
	cmd := exec.Command(clitest.Binary, "--mcp-config", string(cfg), "mcp", "list")
	cmd.Dir = e.Proj
	cmd.Env = []string{
		"HOME=" + e.Home, "XDG_CONFIG_HOME=" + e.Config, "MCPDECK_MANAGED_DIR=" + e.Managed,
		"XDG_CACHE_HOME=" + filepath.Join(e.Home, ".cache"), "PATH=" + os.Getenv("PATH"), "TERM=xterm",
	}
	var out lockedBuffer // the command writes it while the test reads
	cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, &out, slave
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close()
	var screen strings.Builder
	buf := make([]byte, 4096)
	for !strings.Contains(screen.String(), "1 of 2 servers ready · waiting for a-slow") {
		n, err := master.Read(buf)
		if err != nil {
			t.Fatalf("no progress line naming a-slow before the terminal closed: %v\n%q", err, screen.String())
		}
		screen.Write(buf[:n])
	}
	if out.String() != "" {
		t.Errorf("results printed before every server settled: %q", out.String())
	}
	f, err := os.OpenFile(gate, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("go\n")
	f.Close()
	for {
		n, err := master.Read(buf)
		screen.Write(buf[:n])
		if err != nil {
			break
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("mcp list: %v\n%s\n%q", err, out.String(), screen.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 || !strings.Contains(lines[1], "a-slow") || !strings.Contains(lines[2], "b-fast") { // under their scope's heading
		t.Errorf("want a-slow then b-fast, got:\n%s", out.String())
	}
	if !strings.HasSuffix(screen.String(), "\r\x1b[2K") {
		t.Errorf("the progress line was not erased: %q", screen.String())
	}
}

// lockedBuffer is a bytes.Buffer safe to read while exec copies into it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
