// Package editorlaunch starts the fake editor (testdata/fakeeditor) for
// the transports, engine and CLI tests, each editor stopped and reaped
// when its test ends; faultlaunch.Binary builds it once per test binary.
package editorlaunch

import (
	"bufio"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/faultlaunch"
)

// Package is the fake editor's import path: build it with
// faultlaunch.Binary{Package: Package}.
const Package = "github.com/mcpdeck/mcpdeck/testdata/fakeeditor"

// Build builds the fake editor for one test and removes it when the test
// ends: for a package with one test that needs it (others keep a
// faultlaunch.Binary{Package: Package} for all their tests).
func Build(t testing.TB) string {
	t.Helper()
	b := &faultlaunch.Binary{Package: Package}
	t.Cleanup(b.Remove)
	path, err := b.Path()
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// Editor is one running fake editor.
type Editor struct {
	Port     int
	Token    string
	LockPath string
	PID      int
	cmd      *exec.Cmd
	done     chan struct{}
}

// Start runs the fake editor bin with args (-dir, -workspace, -name,
// -transport...) and returns once its lock file is written. It is killed
// and reaped when the test ends, if it is still running.
func Start(t testing.TB, bin string, args ...string) *Editor {
	t.Helper()
	cmd := exec.Command(bin, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ed := &Editor{cmd: cmd, done: make(chan struct{}), PID: cmd.Process.Pid}
	t.Cleanup(ed.Kill)
	br := bufio.NewReader(stderr)
	line, readErr := br.ReadString('\n')
	go func() {
		_, _ = br.WriteTo(discard{})
		_ = cmd.Wait()
		close(ed.done)
	}()
	f := strings.SplitN(strings.TrimPrefix(strings.TrimSpace(line), "listening on "), " ", 3) // the path may hold spaces
	if readErr != nil || len(f) != 3 {
		t.Fatalf("fakeeditor said %q (%v), want its port, token and lock file", line, readErr)
	}
	ed.Port, _ = strconv.Atoi(f[0])
	ed.Token, ed.LockPath = f[1], f[2]
	return ed
}

// Stop asks the editor to quit (it removes its lock file) and waits for it.
func (e *Editor) Stop() {
	if err := stop(e.cmd.Process); err != nil {
		_ = e.cmd.Process.Kill()
	}
	<-e.done
}

// Kill ends the editor at once, leaving its lock file behind (a stale
// one, as an editor that crashed leaves), and waits for it.
func (e *Editor) Kill() {
	_ = e.cmd.Process.Kill()
	<-e.done
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
