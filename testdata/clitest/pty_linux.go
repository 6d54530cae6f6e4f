package clitest

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/ptytest"
)

// OpenPTY opens a pseudo-terminal pair (testdata/ptytest).
func OpenPTY(t testing.TB) (master, slave *os.File) { return ptytest.Open(t) }

// RunAtTerminal runs mcpdeck in the project with a terminal as stdin, typing
// input into it; stdout and stderr are captured as usual.
func (e *Env) RunAtTerminal(input string, args ...string) Result {
	e.T.Helper()
	master, slave := OpenPTY(e.T)
	cmd := exec.Command(Binary, args...)
	cmd.Dir = e.Proj
	cmd.Env = []string{
		"HOME=" + e.Home, "XDG_CONFIG_HOME=" + e.Config, "MCPDECK_MANAGED_DIR=" + e.Managed,
		"XDG_CACHE_HOME=" + filepath.Join(e.Home, ".cache"), "PATH=" + os.Getenv("PATH"),
	}
	var out, errb bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, &out, &errb
	if err := cmd.Start(); err != nil {
		e.T.Fatal(err)
	}
	if _, err := master.WriteString(input); err != nil { // the line discipline keeps it until read
		e.T.Fatal(err)
	}
	code := e.exitCode(cmd.Wait())
	return Result{Stdout: out.String(), Stderr: errb.String(), Code: code}
}

// RunStderrAtTerminal runs mcpdeck in the project with a terminal
// (TERM=xterm) as stderr, and returns as Stderr everything the terminal
// was sent, control sequences included.
func (e *Env) RunStderrAtTerminal(args ...string) Result {
	e.T.Helper()
	master, slave := OpenPTY(e.T)
	cmd := e.Command(args...)
	cmd.Env = append(cmd.Env, "TERM=xterm")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, slave
	if err := cmd.Start(); err != nil {
		e.T.Fatal(err)
	}
	slave.Close()
	screen, _ := io.ReadAll(master) // ends with EIO once the command closed the terminal
	code := e.exitCode(cmd.Wait())
	return Result{Stdout: out.String(), Stderr: string(screen), Code: code}
}

// exitCode is the exit code of a command that ran, failing the test when
// it could not.
func (e *Env) exitCode(err error) int {
	e.T.Helper()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return ee.ExitCode()
	case err != nil:
		e.T.Fatal(err)
	}
	return 0
}
