package cli

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/ptytest"
)

// openPTY opens a pseudo-terminal pair (testdata/ptytest).
func openPTY(t testing.TB) (master, slave *os.File) { return ptytest.Open(t) }

// runAtTerminal runs mcpdeck in the project with a terminal as stdin, typing
// input into it; stdout and stderr are captured as usual.
func (e *cliEnv) runAtTerminal(input string, args ...string) result {
	e.t.Helper()
	master, slave := openPTY(e.t)
	cmd := exec.Command(binary, args...)
	cmd.Dir = e.proj
	cmd.Env = []string{
		"HOME=" + e.home, "XDG_CONFIG_HOME=" + e.config, "MCPDECK_MANAGED_DIR=" + e.managed,
		"XDG_CACHE_HOME=" + filepath.Join(e.home, ".cache"), "PATH=" + os.Getenv("PATH"),
	}
	var out, errb bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, &out, &errb
	if err := cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	if _, err := master.WriteString(input); err != nil { // the line discipline keeps it until read
		e.t.Fatal(err)
	}
	err := cmd.Wait()
	code := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		e.t.Fatal(err)
	}
	return result{stdout: out.String(), stderr: errb.String(), code: code}
}
