package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// TestNoTerminalQueryAtStart: a CLI command on a terminal that never
// answers writes no colour or cursor query (Bubble Tea's package init used
// to, and then waited 5 s for the answer), and the servers it starts do not
// inherit the CI variable that suppresses the query during start-up.
func TestNoTerminalQueryAtStart(t *testing.T) {
	e := clitest.NewEnv(t)
	envFile := filepath.Join(t.TempDir(), "env")
	cfg := `{"mcpServers": {"e": {"command": "sh", "args": ["-c", "env > '` + envFile + `'; exit 1"]}}}`
	for _, args := range [][]string{{"mcp", "list", "--no-connect"}, {"--mcp-config", cfg, "mcp", "list"}, {"mcp", "get", "nosuch"}} {
		master, slave := clitest.OpenPTY(t)
		cmd := exec.Command(clitest.Binary, args...)
		cmd.Dir = e.Proj
		cmd.Env = []string{ // no CI: the query would happen
			"HOME=" + e.Home, "XDG_CONFIG_HOME=" + e.Config, "MCPDECK_MANAGED_DIR=" + e.Managed,
			"XDG_CACHE_HOME=" + filepath.Join(e.Home, ".cache"), "PATH=" + os.Getenv("PATH"), "TERM=xterm-256color",
		}
		cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
		// the terminal is the command's controlling terminal and it runs in
		// the foreground, as in a shell: only then would termenv ask
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		slave.Close()
		var screen strings.Builder
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			screen.Write(buf[:n])
			if err != nil {
				break
			}
		}
		_ = cmd.Wait()
		if s := screen.String(); strings.Contains(s, "\x1b]11;?") || strings.Contains(s, "\x1b[6n") {
			t.Errorf("mcpdeck %v queried the terminal: %q", args, s)
		}
	}
	b, err := os.ReadFile(envFile)
	if err != nil {
		t.Fatalf("the server did not run: %v", err)
	}
	if strings.Contains("\n"+string(b), "\nCI=") {
		t.Error("a server inherited CI from mcpdeck's start-up")
	}
}
