//go:build windows

package idefind

import (
	"io/fs"
	"os"

	"golang.org/x/sys/windows"

	"github.com/mcpdeck/mcpdeck/engine/ide"
)

// readLockFile reads an editor's lock file if ide.CheckFile trusts it.
// Windows guards the profile directory by its ACL: ownership and mode
// bits are not checked here, only that the name is not a symlink (or
// other reparse point), names a regular file, and is not too large.
func readLockFile(path string) ([]byte, error) {
	li, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if err := ide.CheckFile(lockFacts(li)); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !os.SameFile(li, fi) {
		return nil, ide.CheckFile(ide.FileFacts{Symlink: true}) // swapped since Lstat
	}
	return readJudged(f)
}

func lockFacts(fi fs.FileInfo) ide.FileFacts {
	return ide.FileFacts{
		Symlink: fi.Mode()&(fs.ModeSymlink|fs.ModeIrregular) != 0, Regular: fi.Mode().IsRegular(),
		Size: fi.Size(), Owned: true,
	}
}

// processAlive reports whether pid is a running process.
func processAlive(pid int) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return false
	}
	defer windows.CloseHandle(h)
	var code uint32
	return windows.GetExitCodeProcess(h, &code) == nil && code == 259 // STILL_ACTIVE
}
