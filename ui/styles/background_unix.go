//go:build unix

package styles

import (
	"os"
	"time"

	"github.com/charmbracelet/x/term"
)

// queryBackground asks the controlling terminal for its background colour
// and waits at most timeout for the answer. The terminal is put in raw
// mode for the question (so the answer is not echoed) and restored.
func queryBackground(timeout time.Duration) (dark, ok bool) {
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return false, false
	}
	defer tty.Close()
	return askBackground(tty, timeout)
}

// askBackground is queryBackground on an open terminal.
func askBackground(tty *os.File, timeout time.Duration) (dark, ok bool) {
	fd, ok := rawFd(tty)
	if !ok {
		return false, false
	}
	state, err := term.MakeRaw(fd)
	if err != nil {
		return false, false
	}
	defer func() { _ = term.Restore(fd, state) }()
	if _, err := tty.WriteString(backgroundQuery); err != nil {
		return false, false
	}
	if tty.SetReadDeadline(time.Now().Add(timeout)) != nil {
		return false, false // not pollable: waiting could block for good
	}
	var got []byte
	buf := make([]byte, 256)
	for len(got) < 4096 && !replyComplete(got) {
		n, err := tty.Read(buf)
		got = append(got, buf[:n]...)
		if err != nil {
			break // the deadline: the terminal did not answer in time
		}
	}
	return parseBackgroundReply(got)
}

// rawFd returns tty's descriptor without tty.Fd, which would switch it to
// blocking mode and so disable the read deadline the wait depends on.
func rawFd(tty *os.File) (uintptr, bool) {
	rc, err := tty.SyscallConn()
	if err != nil {
		return 0, false
	}
	var fd uintptr
	if rc.Control(func(f uintptr) { fd = f }) != nil {
		return 0, false
	}
	return fd, true
}
