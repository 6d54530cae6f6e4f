//go:build unix

package platform

import (
	"os"

	"golang.org/x/sys/unix"
)

// tryLock asks for an exclusive flock on f without waiting (it fails with
// EWOULDBLOCK while another open file holds one) and releases it at once.
func tryLock(f *os.File) error {
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		return err
	}
	return unix.Flock(int(f.Fd()), unix.LOCK_UN)
}
