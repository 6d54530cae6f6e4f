//go:build linux

package launch

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/mcpdeck/mcpdeck/model/sandbox"
)

// placeholders are the empty read-only files and directories that stand,
// while a sandboxed server runs, where something that runs later does not
// exist yet (sandbox.Profile.Placeholders): bubblewrap binds each
// read-only onto itself, so the server can neither write it nor create
// it. They are on the host's disk (a mount needs something to mount on),
// so mcpdeck removes them when the server stops. Several servers may
// share one (two servers writing the same project): each holds a shared
// lock on it while it runs, and the last to stop removes it. One that
// the host removes meanwhile (git clean) is no longer there for the
// sandbox either: the kernel detaches a mount whose place is deleted.
type placeholders struct{ held []heldPlaceholder }

type heldPlaceholder struct {
	sandbox.Placeholder
	f *os.File
}

// holdPlaceholders makes (or finds, left by another server) and locks
// each placeholder. Something else found in a placeholder's place
// (the path appeared since Resolve looked) fails the start: it would not
// be held read-only.
func holdPlaceholders(list []sandbox.Placeholder) (*placeholders, error) {
	h := &placeholders{}
	for _, ph := range list {
		f, err := holdPlaceholder(ph)
		if err != nil {
			h.release()
			return nil, fmt.Errorf("sandbox: cannot keep %s from being created: %w", ph.Path, err)
		}
		h.held = append(h.held, heldPlaceholder{Placeholder: ph, f: f})
	}
	return h, nil
}

// errNotPlaceholder is a file or directory, not mcpdeck's placeholder,
// where a placeholder was to be made.
var errNotPlaceholder = errors.New("something else appeared there")

// holdPlaceholder makes ph if it does not exist and opens it with a
// shared lock, checking after the lock that it is still the one at its
// path (another server's release may have removed it between open and
// lock: then it is made again).
func holdPlaceholder(ph sandbox.Placeholder) (*os.File, error) {
	for range 5 {
		f, made, err := makePlaceholder(ph)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			return nil, fmt.Errorf("%w (%w)", errNotPlaceholder, err)
		case !made && !isPlaceholder(f, ph.Dir):
			_ = f.Close()
			return nil, errNotPlaceholder
		}
		if err := flock(f, unix.LOCK_SH); err != nil {
			_ = f.Close()
			return nil, err
		}
		if samePlace(f, ph.Path) {
			return f, nil
		}
		_ = f.Close()
	}
	return nil, errors.New("it keeps changing")
}

// makePlaceholder opens ph, made here (made) or found, never through a
// link: a file is created and opened at once; a directory is made, then
// opened.
func makePlaceholder(ph sandbox.Placeholder) (f *os.File, made bool, err error) {
	if !ph.Dir {
		f, err = os.OpenFile(ph.Path, os.O_RDONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o444)
		if err == nil {
			return f, true, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, false, err
		}
		f, err = os.OpenFile(ph.Path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
		return f, false, err
	}
	mkErr := os.Mkdir(ph.Path, 0o555)
	if mkErr != nil && !errors.Is(mkErr, fs.ErrExist) {
		return nil, false, mkErr
	}
	f, err = os.OpenFile(ph.Path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_DIRECTORY, 0)
	return f, mkErr == nil, err
}

// release removes each placeholder no other server holds, and lets go of
// the rest.
func (h *placeholders) release() {
	if h == nil {
		return
	}
	for _, p := range h.held {
		if flock(p.f, unix.LOCK_EX|unix.LOCK_NB) == nil && samePlace(p.f, p.Path) && isPlaceholder(p.f, p.Dir) {
			_ = os.Remove(p.Path)
		}
		_ = p.f.Close()
	}
	h.held = nil
}

// isPlaceholder reports whether f is an empty file (or directory, when
// dir) nobody may write: one mcpdeck made.
func isPlaceholder(f *os.File, dir bool) bool {
	st, err := f.Stat()
	if err != nil || st.Mode().Perm()&0o222 != 0 {
		return false
	}
	if !dir {
		return st.Mode().IsRegular() && st.Size() == 0
	}
	if !st.IsDir() {
		return false
	}
	_, err = f.Readdirnames(1)
	if _, serr := f.Seek(0, io.SeekStart); serr != nil {
		return false
	}
	return errors.Is(err, io.EOF)
}

// samePlace reports whether f is still the file at path.
func samePlace(f *os.File, path string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Lstat(path)
	return err == nil && os.SameFile(a, b)
}

func flock(f *os.File, how int) error {
	for {
		err := unix.Flock(int(f.Fd()), how)
		if !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}
