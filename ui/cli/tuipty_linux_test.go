//go:build linux

package cli

import (
	"regexp"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// ptyTUI is the real TUI running in a 120×40 pseudo-terminal of its own
// (its controlling terminal, as in a terminal window).
type ptyTUI struct {
	t      testing.TB
	pid    int
	screen *lockedScreen
	shown  chan struct{} // closed once the screen matched want
	exited chan struct{}
	stop   func() // ends it: SIGTERM, SIGKILL 30 s later (also at the test's end)
}

// startPTYTUI starts the TUI with args and watches its output for want.
// At the latest when the test ends it is stopped (stop).
func startPTYTUI(t testing.TB, e *clitest.Env, want *regexp.Regexp, args ...string) *ptyTUI {
	t.Helper()
	master, slave := clitest.OpenPTY(t)
	if err := unix.IoctlSetWinsize(int(slave.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 40, Col: 120}); err != nil {
		t.Fatal(err)
	}
	cmd := e.Command(args...)
	cmd.Env = append(cmd.Env, "TERM=xterm-256color", "NO_COLOR=1")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &ptyTUI{t: t, pid: cmd.Process.Pid, screen: &lockedScreen{}, shown: make(chan struct{}), exited: make(chan struct{})}
	var reading sync.WaitGroup
	reading.Go(func() {
		once := sync.OnceFunc(func() { close(p.shown) })
		buf := make([]byte, 32<<10)
		for {
			n, err := master.Read(buf)
			if n > 0 && want.Match(p.screen.add(buf[:n])) {
				once()
			}
			if err != nil {
				return
			}
		}
	})
	go func() {
		_ = cmd.Wait()
		close(p.exited)
	}()
	p.stop = sync.OnceFunc(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-p.exited:
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			<-p.exited
		}
		_ = slave.Close()
		_ = master.Close()
		reading.Wait()
	})
	t.Cleanup(p.stop)
	return p
}

// waitShown waits until the screen matched, failing after limit.
func (p *ptyTUI) waitShown(limit time.Duration) {
	p.t.Helper()
	select {
	case <-p.shown:
	case <-p.exited:
		p.t.Fatalf("the TUI exited; it showed:\n%s", p.screen.tail())
	case <-time.After(limit):
		p.t.Fatalf("the TUI never showed what was awaited; it showed:\n%s", p.screen.tail())
	}
}

// exitsOn sends sig and reports whether the TUI exited within limit.
func (p *ptyTUI) exitsOn(sig syscall.Signal, limit time.Duration) bool {
	_ = syscall.Kill(p.pid, sig)
	select {
	case <-p.exited:
		return true
	case <-time.After(limit):
		return false
	}
}

// lockedScreen keeps the last 64 KB the TUI wrote.
type lockedScreen struct {
	mu sync.Mutex
	b  []byte
}

// add appends p and returns the last 4 KB, where the latest frame is.
func (s *lockedScreen) add(p []byte) []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.b = append(s.b, p...)
	if len(s.b) > 64<<10 {
		s.b = append([]byte(nil), s.b[len(s.b)-32<<10:]...)
	}
	return append([]byte(nil), s.b[max(0, len(s.b)-4096):]...)
}

func (s *lockedScreen) tail() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return string(s.b[max(0, len(s.b)-2048):])
}
