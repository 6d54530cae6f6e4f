package platform

import (
	"fmt"
	"os"
	"path/filepath"
)

// Lock takes an exclusive lock on path against other mcpdeck processes and
// returns the function that releases it, creating path's directory (0755)
// first. Another process doing a read-modify-write of the same file waits
// here, so neither loses the other's edit. The lock is the operating
// system's (flock on Unix, LockFileEx on Windows), so it holds between
// processes and is released if the holder dies.
//
// The lock is taken on the sidecar "<path>.lock", not on path: path is
// replaced by rename (WriteFile), and a lock on the old file would protect
// nothing. The holder deletes the sidecar as it lets go (releaseLock), so
// no ".lock" file is left next to a project's .mcp.json once nobody waits.
// A waiter may therefore wake up holding a lock on a deleted sidecar; it
// checks that the path still names the file it locked and starts over
// otherwise.
func Lock(path string) (unlock func(), err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("cannot create %s: %w", filepath.Dir(path), err)
	}
	lockPath := path + ".lock"
	for {
		lf, err := openSidecar(lockPath)
		if err != nil {
			return nil, fmt.Errorf("cannot lock %s: %w", path, err)
		}
		if err := lockHandle(lf); err != nil {
			lf.Close()
			return nil, fmt.Errorf("cannot lock %s: %w", path, err)
		}
		held, herr := lf.Stat()
		named, nerr := os.Stat(lockPath)
		if herr == nil && nerr == nil && os.SameFile(held, named) {
			return func() { releaseLock(lf, lockPath) }, nil
		}
		_ = unlockHandle(lf)
		lf.Close() // the sidecar was replaced while we waited: retry
	}
}
