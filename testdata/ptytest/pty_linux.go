// Package ptytest opens pseudo-terminals for tests that need a real
// terminal (what a command writes to it, what it reads from it). Linux
// only; tests using it are _linux_test.go files.
package ptytest

import (
	"fmt"
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// Open opens a pseudo-terminal pair: what the test writes to master the
// process reads from its terminal, the slave. It skips the test where the
// system has none; both ends close at cleanup.
func Open(t testing.TB) (master, slave *os.File) {
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
