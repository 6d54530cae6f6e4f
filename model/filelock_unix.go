//go:build unix

package model

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// lockFile takes an exclusive flock on the sidecar "<path>.lock" and returns
// the function that releases it. Another mcpdeck process doing a
// read-modify-write of the same file waits here, so neither loses the other's
// edit. The sidecar (not the file itself) is locked because the file is
// replaced by rename and a lock on the old inode would protect nothing.
//
// The holder deletes the sidecar before unlocking so no ".lock" file is left
// next to a project's .mcp.json. A waiter may therefore wake up holding a lock
// on a deleted sidecar; it checks that the path still names the inode it
// locked and starts over otherwise.
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
		if err := flock(lf, syscall.LOCK_EX); err != nil {
			lf.Close()
			return nil, fmt.Errorf("cannot lock %s: %w", path, err)
		}
		held, herr := lf.Stat()
		named, nerr := os.Stat(lockPath)
		if herr == nil && nerr == nil && os.SameFile(held, named) {
			return func() {
				_ = os.Remove(lockPath)
				_ = flock(lf, syscall.LOCK_UN)
				lf.Close()
			}, nil
		}
		lf.Close() // the sidecar was replaced while we waited: retry
	}
}

// flock is syscall.Flock, retried when a signal interrupts the wait.
func flock(f *os.File, how int) error {
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}
