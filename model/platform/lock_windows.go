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
