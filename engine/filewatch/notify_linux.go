//go:build linux

package filewatch

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/mcpdeck/mcpdeck/engine/lock"
)

// What the kernel reports. A directory: names appearing and leaving (a new
// .mcp.json, an editor's rename into place), never writes to the files in
// it, so a busy project directory costs nothing. A watched file itself: its
// writes and mode changes.
const (
	dirEvents  = unix.IN_CREATE | unix.IN_MOVED_TO | unix.IN_MOVED_FROM | unix.IN_DELETE | unix.IN_ONLYDIR
	fileEvents = unix.IN_MODIFY | unix.IN_CLOSE_WRITE | unix.IN_ATTRIB
)

// inotifier is a Watcher's inotify instance on Linux: fsnotify
// watches a directory for writes to every file in it, which the kernel
// then reports one by one however few of them are watched.
type inotifier struct {
	fd    int
	f     *os.File // fd, read through the runtime's poller: Close ends a Read
	out   chan string
	fail  chan error
	done  chan struct{} // closed when read ends
	stop  chan struct{} // closed by close: read ends even with an event no one takes
	mu    sync.Mutex
	paths map[int32]string // watch descriptor → the directory or file it watches
}

func newNotifier() (fileNotifier, error) {
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		return nil, os.NewSyscallError("inotify_init1", err)
	}
	n := &inotifier{fd: fd, f: os.NewFile(uintptr(fd), "inotify"), out: make(chan string), fail: make(chan error), done: make(chan struct{}), stop: make(chan struct{}), paths: map[int32]string{}}
	go n.read()
	return n, nil
}

func (n *inotifier) names() <-chan string { return n.out }
func (n *inotifier) errs() <-chan error   { return n.fail }

// watch watches file and its directory; a file that does not exist yet is
// seen when it appears in the directory (and watched after the reload).
func (n *inotifier) watch(file string) error {
	dir := filepath.Dir(file)
	wd, err := unix.InotifyAddWatch(n.fd, dir, dirEvents)
	if err != nil {
		return os.NewSyscallError("inotify_add_watch", err)
	}
	lock.With(&n.mu, func() { n.paths[int32(wd)] = dir })
	if wd, err := unix.InotifyAddWatch(n.fd, file, fileEvents); err == nil {
		lock.With(&n.mu, func() { n.paths[int32(wd)] = file })
	}
	return nil
}

func (n *inotifier) close() error {
	close(n.stop)
	err := n.f.Close()
	<-n.done
	return err
}

// read turns the kernel's events into the paths they concern until the
// instance is closed. A lost batch (queue overflow) reports "", which
// matches any watched file.
func (n *inotifier) read() {
	defer close(n.done)
	defer close(n.out)
	buf := make([]byte, 64*(unix.SizeofInotifyEvent+unix.NAME_MAX+1))
	for {
		k, err := n.f.Read(buf)
		if err != nil {
			if !errors.Is(err, os.ErrClosed) {
				select {
				case n.fail <- err:
				case <-n.stop:
				}
			}
			return
		}
		for off := 0; off+unix.SizeofInotifyEvent <= k; {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
			name := buf[off+unix.SizeofInotifyEvent : off+unix.SizeofInotifyEvent+int(ev.Len)]
			off += unix.SizeofInotifyEvent + int(ev.Len)
			if path, ok := n.path(ev, name); ok {
				select {
				case n.out <- path:
				case <-n.stop:
					return
				}
			}
		}
	}
}

// path is the file event ev concerns; ok is false for the kernel's own
// bookkeeping (a watch removed).
func (n *inotifier) path(ev *unix.InotifyEvent, name []byte) (path string, ok bool) {
	if ev.Mask&unix.IN_Q_OVERFLOW != 0 {
		return "", true
	}
	lock.With(&n.mu, func() {
		path, ok = n.paths[ev.Wd]
		if ev.Mask&unix.IN_IGNORED != 0 {
			delete(n.paths, ev.Wd)
			ok = false
		}
	})
	if name, _, _ = bytes.Cut(name, []byte{0}); ok && len(name) > 0 { // NUL-padded
		path = filepath.Join(path, string(name))
	}
	return path, ok
}
