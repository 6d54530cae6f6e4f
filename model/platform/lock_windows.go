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
