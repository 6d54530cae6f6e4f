package styles

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal pair; the test plays the terminal on
// master.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skip("no pseudo-terminals:", err)
	}
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		m.Close()
		t.Skip("cannot unlock the pseudo-terminal:", err)
	}
	n, err := unix.IoctlGetUint32(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		m.Close()
		t.Skip("no pseudo-terminal number:", err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		t.Skip("cannot open the pseudo-terminal:", err)
	}
	t.Cleanup(func() { s.Close(); m.Close() })
	return m, s
}

// TestAskBackgroundReadsTheAnswer: a terminal answering with a white
// background makes the palette light; the question is asked once.
func TestAskBackgroundReadsTheAnswer(t *testing.T) {
	master, slave := openPTY(t)
	asked := make(chan string, 1)
	go func() {
		buf := make([]byte, 64)
		n, _ := master.Read(buf)
		asked <- string(buf[:n])
		master.WriteString("\x1b]11;rgb:ffff/ffff/ffff\x07\x1b[3;1R")
	}()
	dark, ok := askBackground(slave, 10*time.Second) // the answer ends the wait, not the deadline
	if !ok || dark {
		t.Errorf("white background: dark %v ok %v", dark, ok)
	}
	if q := <-asked; !strings.Contains(q, "\x1b]11;?") || !strings.Contains(q, "\x1b[6n") {
		t.Errorf("question %q", q)
	}
}

// TestAskBackgroundGivesUpOnSilence: a terminal that never answers costs
// the timeout, and the default stays.
func TestAskBackgroundGivesUpOnSilence(t *testing.T) {
	_, slave := openPTY(t)
	if _, ok := askBackground(slave, 50*time.Millisecond); ok {
		t.Error("a silent terminal gave an answer")
	}
}
