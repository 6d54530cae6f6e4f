//go:build windows

package platform

import (
	"os"

	"golang.org/x/sys/windows"
)

// lockHandle waits for an exclusive LockFileEx lock on the first byte of f.
// Such a lock belongs to the handle: another handle, in this process or
// another, waits until it is released.
func lockHandle(f *os.File) error {
	return windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, new(windows.Overlapped))
}

// unlockHandle releases lockHandle's lock.
func unlockHandle(f *os.File) error {
	return windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, new(windows.Overlapped))
}

// openSidecar opens (or creates) Lock's sidecar, trying again while Windows
// refuses because the last holder is deleting it (releaseLock): while its
// delete has the file open, an open without FILE_SHARE_DELETE, as Go's
// are, is a sharing violation, and once it is pending deletion an open is
// denied. Under Wine, eight writers at once in config.TestConcurrentWriters
// met 'cannot lock …: Sharing violation' and lost an edit.
func openSidecar(lockPath string) (f *os.File, err error) {
	err = RetryWhileBusy(renameBudget, func() error {
		f, err = os.OpenFile(lockPath, os.O_RDWR|os.O_CREATE, 0o600)
		return err
	})
	return f, err
}

// releaseLock lets go of Lock's sidecar f at lockPath: unlocked and closed
// first, then deleted. Windows refuses to delete a file any process holds
// open (Go opens files without FILE_SHARE_DELETE), the holder included, so
// deleting first, as on Unix, always failed and left the sidecar. Now the
// delete succeeds when nobody else has the sidecar open; a waiter that
// does keeps it, takes the lock and deletes it in its turn.
func releaseLock(f *os.File, lockPath string) {
	_ = unlockHandle(f)
	f.Close()
	_ = os.Remove(lockPath)
}
