//go:build unix

package cli

import (
	"bufio"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
	"github.com/mcpdeck/mcpdeck/ui/cli/clierr"
)

// TestServeExitsZeroOnSIGTERM: an agent stops the server it started with
// SIGTERM, and serve exits 0 (asked to stop, no failure); Ctrl-C (SIGINT)
// interrupts it: 130.
func TestServeExitsZeroOnSIGTERM(t *testing.T) {
	e := clitest.NewEnv(t)
	for _, c := range []struct {
		sig  syscall.Signal
		want int
	}{{syscall.SIGTERM, clierr.ExitOK}, {syscall.SIGINT, clierr.ExitInterrupted}} {
		t.Run(c.sig.String(), func(t *testing.T) {
			cmd := e.Command("--mcp-config", `{"mcpServers":{}}`, "serve")
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
			defer func() { _ = cmd.Process.Kill() }()
			fmt.Fprintln(in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
			lines := bufio.NewScanner(out)
			for lines.Scan() && !strings.Contains(lines.Text(), `"id":1`) {
			}
			if err := cmd.Process.Signal(c.sig); err != nil {
				t.Fatal(err)
			}
			err = cmd.Wait()
			code := 0
			var exit *exec.ExitError
			if errors.As(err, &exit) {
				code = exit.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != c.want {
				t.Errorf("exit %d after %s, want %d", code, c.sig, c.want)
			}
		})
	}
}
