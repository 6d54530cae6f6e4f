//go:build windows

package model

import (
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/windows"
)

// lockFile takes an exclusive LockFileEx lock on the sidecar "<path>.lock"
// and returns the function that releases it, for the reason and with the
// retry described in filelock_unix.go: the holder removes the sidecar
// before unlocking (Windows may refuse while another process has it open;
// the sidecar then stays, which is harmless), and a waiter that wakes up on
// a replaced sidecar starts over.
func lockFile(path string) (unlock func(), err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("cannot create %s: %w", filepath.Dir(path), err)
	}
	lockPath := path + ".lock"
	for {
		lf, err := os.OpenFile(lockPath, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return nil, fmt.Errorf("cannot lock %s: %w", path, err)
		}
		h := windows.Handle(lf.Fd())
		ol := new(windows.Overlapped)
		if err := windows.LockFileEx(h, windows.LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, ol); err != nil {
			lf.Close()
			return nil, fmt.Errorf("cannot lock %s: %w", path, err)
		}
		held, herr := lf.Stat()
		named, nerr := os.Stat(lockPath)
		if herr == nil && nerr == nil && os.SameFile(held, named) {
			return func() {
				_ = os.Remove(lockPath)
				_ = windows.UnlockFileEx(h, 0, 1, 0, ol)
				lf.Close()
			}, nil
		}
		_ = windows.UnlockFileEx(h, 0, 1, 0, ol)
		lf.Close() // the sidecar was replaced while we waited: retry
	}
}
