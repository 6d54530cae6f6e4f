package mcpcmd

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// approveOnTerminal runs `mcpdeck mcp approve name` with a terminal as its
// standard input and output, answers the question with answer, and returns
// what the terminal showed.
func approveOnTerminal(t *testing.T, e *clitest.Env, name, answer string) string {
	t.Helper()
	return onTerminal(t, e, answer, "mcp", "approve", name)
}

// onTerminal runs mcpdeck with args and a terminal as its standard input
// and output, answers its [y/N] question with answer, and returns what
// the terminal showed.
func onTerminal(t *testing.T, e *clitest.Env, answer string, args ...string) string {
	t.Helper()
	what := strings.Join(args, " ")
	ctl, tty := clitest.OpenPTY(t)
	defer ctl.Close()
	cmd := exec.Command(clitest.Binary, args...)
	cmd.Dir = e.Proj
	cmd.Env = []string{
		"HOME=" + e.Home, "XDG_CONFIG_HOME=" + e.Config, "MCPDECK_MANAGED_DIR=" + e.Managed,
		"XDG_CACHE_HOME=" + filepath.Join(e.Home, ".cache"), "PATH=" + os.Getenv("PATH"),
	}
	var stderr bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	_ = tty.Close() // the child holds it now; its exit ends our reads with EIO
	var shown bytes.Buffer
	buf := make([]byte, 4096)
	answered := false
	for {
		n, err := ctl.Read(buf)
		shown.Write(buf[:n])
		if !answered && strings.Contains(shown.String(), "[y/N] ") {
			answered = true
			if _, err := ctl.Write([]byte(answer + "\n")); err != nil {
				t.Fatal(err)
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, syscall.EIO) {
				t.Fatal(err)
			}
			break
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("mcpdeck %s: %v\n%s\n%s", what, err, shown.String(), stderr.String())
	}
	if !answered {
		t.Fatalf("mcpdeck %s on a terminal did not ask:\n%s", what, shown.String())
	}
	return shown.String()
}

func TestApproveOnTerminalShowsEverythingFirst(t *testing.T) {
	t.Parallel()
	e := clitest.NewEnv(t)
	e.WriteFile(e.ScopeFile("project"), hostileMCPJSON)
	status := func() string { return e.Get("evil").Approval.Status }

	shown := approveOnTerminal(t, e, "evil", "n")
	for _, w := range wantApprovalView {
		if !strings.Contains(shown, w) {
			t.Errorf("the confirmation lacks %q:\n%s", w, shown)
		}
	}
	// The terminal turns each \n into \r\n; besides those, nothing may
	// reach it that moves the cursor or rewrites the screen. The answer
	// echoed back ("n\r\n") is the terminal's own.
	assertNoControls(t, shown, true)
	if !strings.Contains(shown, "Nothing approved.") || status() != "pending" {
		t.Fatalf("answering n approved it (status %s):\n%s", status(), shown)
	}

	shown = approveOnTerminal(t, e, "all", "y")
	if !strings.Contains(shown, "NODE_OPTIONS=--require ./x.js") || !strings.Contains(shown, "Approved evil.") || status() != "approved" {
		t.Fatalf("answering y did not approve (status %s):\n%s", status(), shown)
	}

	// Off a terminal nothing is asked, as before.
	e.WriteFile(e.ScopeFile("project"), strings.Replace(hostileMCPJSON, "srv.js", "srv2.js", 1))
	if out := e.OK("mcp", "approve", "evil").Stdout; strings.Contains(out, "[y/N]") || status() != "approved" {
		t.Fatalf("off a terminal: %s (status %s)", out, status())
	}
}
