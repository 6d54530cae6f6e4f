package platform

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// CreatePrivate opens path for writing a file only the person may read
// (mode 0600): a trace, a support bundle or a token, which hold what servers
// said or what lets someone in. It never follows a symbolic link at path: a
// link there is refused, so a link planted in a shared directory cannot send
// the file elsewhere. With exclusive, a file that exists is refused too
// (fs.ErrExist); otherwise an existing regular file is emptied and made
// 0600. Only regular files are written: a FIFO, device or directory at path
// is refused without waiting.
func CreatePrivate(path string, exclusive bool) (*os.File, error) {
	if st, err := os.Lstat(path); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		return nil, fmt.Errorf("refusing to write %s: it is a symbolic link", path)
	}
	if exclusive {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("refusing to write %s: %w (choose a new name)", path, fs.ErrExist)
		}
		if err != nil {
			return nil, err
		}
		return f, nil
	}
	f, err := openNoFollow(path)
	if err != nil {
		if isLinkLoop(err) {
			return nil, fmt.Errorf("refusing to write %s: it is a symbolic link", path)
		}
		return nil, err
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = fmt.Errorf("refusing to write %s: not a regular file (%s)", path, st.Mode().Type())
	}
	if err == nil {
		err = f.Truncate(0)
	}
	if err == nil {
		err = f.Chmod(0o600)
	}
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	return f, nil
}
