//go:build unix

package idefind

import (
	"errors"
	"io/fs"
	"os"
	"syscall"

	"github.com/mcpdeck/mcpdeck/engine/ide"
)

// readLockFile reads an editor's lock file if ide.CheckFile trusts it. It
// opens without following a symlink and judges the file it opened
// (fstat), so a file swapped in after the check is not read.
func readLockFile(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EMLINK) {
		return nil, ide.CheckFile(ide.FileFacts{Symlink: true})
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readJudged(f)
}

// lockFacts is what the trust rule needs of fi.
func lockFacts(fi fs.FileInfo) ide.FileFacts {
	facts := ide.FileFacts{
		Symlink: fi.Mode()&fs.ModeSymlink != 0, Regular: fi.Mode().IsRegular(), Size: fi.Size(),
		Writable: fi.Mode().Perm()&0o022 != 0,
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		facts.Owned = int(st.Uid) == os.Getuid()
	}
	return facts
}

// processAlive reports whether pid is a running process of this user:
// signal 0 reaches it. A process of another user (EPERM) is not the
// editor that wrote a lock file we own.
func processAlive(pid int) bool {
	return syscall.Kill(pid, 0) == nil
}
