//go:build !linux

package filewatch

import (
	"path/filepath"

	"github.com/fsnotify/fsnotify"
)

// fsnotifier is a Watcher's notifier where there is no inotify:
// fsnotify watching the files' directories (kqueue, ReadDirectoryChangesW).
type fsnotifier struct {
	fs   *fsnotify.Watcher
	out  chan string
	stop chan struct{} // closed by close: the forwarder ends
}

func newNotifier() (fileNotifier, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	n := &fsnotifier{fs: fw, out: make(chan string), stop: make(chan struct{})}
	go func() {
		defer close(n.out)
		for ev := range fw.Events {
			select {
			case n.out <- ev.Name:
			case <-n.stop:
				return
			}
		}
	}()
	return n, nil
}

func (n *fsnotifier) names() <-chan string { return n.out }
func (n *fsnotifier) errs() <-chan error   { return n.fs.Errors }

// watch watches file's directory (fsnotify watches each directory once).
func (n *fsnotifier) watch(file string) error { return n.fs.Add(filepath.Dir(file)) }

// close ends the forwarder and fsnotify.
func (n *fsnotifier) close() error {
	close(n.stop)
	return n.fs.Close()
}
