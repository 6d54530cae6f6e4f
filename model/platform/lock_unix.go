//go:build unix

package platform

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// openSidecar opens (or creates) Lock's sidecar.
func openSidecar(lockPath string) (*os.File, error) {
	return os.OpenFile(lockPath, os.O_RDWR|os.O_CREATE, 0o600)
}

// lockHandle waits for an exclusive flock on f, retrying when a signal
// interrupts the wait.
func lockHandle(f *os.File) error { return flock(f, unix.LOCK_EX) }

// unlockHandle releases lockHandle's lock.
func unlockHandle(f *os.File) error { return flock(f, unix.LOCK_UN) }

// releaseLock lets go of Lock's sidecar f at lockPath: deleted first, while
// still locked, so a waiter that wakes up finds the path names another
// file (or none) and starts over.
func releaseLock(f *os.File, lockPath string) {
	_ = os.Remove(lockPath)
	_ = unlockHandle(f)
	f.Close()
}

func flock(f *os.File, how int) error {
	for {
		err := unix.Flock(int(f.Fd()), how)
		if !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}
