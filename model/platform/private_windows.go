//go:build windows

package platform

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// errLinkAtPath is openNoFollow's refusal of a symbolic link (or another
// reparse point) at the path.
var errLinkAtPath = errors.New("a reparse point is at the path")

// openNoFollow opens path for writing, creating it, without following a
// symbolic link at path: FILE_FLAG_OPEN_REPARSE_POINT opens a link itself,
// not where it points, and a file that turns out to be a reparse point is
// refused. So a link made after CreatePrivate's Lstat is not followed
// either. The mode is left to CreatePrivate (Windows keeps only read-only).
func openNoFollow(path string) (*os.File, error) {
	name, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	h, err := windows.CreateFile(name, windows.GENERIC_WRITE, windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE, nil,
		windows.OPEN_ALWAYS, windows.FILE_ATTRIBUTE_NORMAL|windows.FILE_FLAG_OPEN_REPARSE_POINT, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	var info windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(h, &info); err != nil || info.FileAttributes&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0 {
		_ = windows.CloseHandle(h)
		if err == nil {
			err = errLinkAtPath
		}
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(h), path), nil
}

// isLinkLoop reports openNoFollow's refusal of a link.
func isLinkLoop(err error) bool { return errors.Is(err, errLinkAtPath) }
