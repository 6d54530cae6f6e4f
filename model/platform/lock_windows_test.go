//go:build windows

package platform

import (
	"os"

	"golang.org/x/sys/windows"
)

// tryLock asks for an exclusive LockFileEx lock on f's first byte without
// waiting (it fails with ERROR_LOCK_VIOLATION while another handle holds
// one) and releases it at once.
func tryLock(f *os.File) error {
	h := windows.Handle(f.Fd())
	flags := uint32(windows.LOCKFILE_EXCLUSIVE_LOCK | windows.LOCKFILE_FAIL_IMMEDIATELY)
	if err := windows.LockFileEx(h, flags, 0, 1, 0, new(windows.Overlapped)); err != nil {
		return err
	}
	return windows.UnlockFileEx(h, 0, 1, 0, new(windows.Overlapped))
}
