package engine

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/mcpdeck/mcpdeck/engine/lock"
)

// watchDebounce collapses an editor's burst of writes into one reload.
const watchDebounce = 250 * time.Millisecond

// watcher reloads the engine when a config file changes. It watches the
// directories of every file Load consulted, so files created later (a new
// .mcp.json) are noticed too, and atomic rename-into-place writes as well.
type watcher struct {
	fs    fileNotifier
	done  chan struct{}
	mu    sync.Mutex
	files map[string]bool
	timer *time.Timer
}

// fileNotifier reports the paths of changed files: on Linux only config
// files and names appearing in or leaving their directories
// (watchnotify_linux.go), elsewhere anything in those directories
// (fsnotify, watchnotify_other.go), which watchLoop filters by name.
type fileNotifier interface {
	watch(file string) error // file and its directory, which exists
	names() <-chan string    // closed by close; "" when events were lost
	errs() <-chan error
	close() error
}

// startWatch begins watching the files of the current config.
func (c *configParts) startWatch() error {
	e := c.e
	fw, err := newNotifier()
	if err != nil {
		return err
	}
	w := &watcher{fs: fw, done: make(chan struct{}), files: map[string]bool{}}
	var files []string
	e.locked(func() {
		if e.closed {
			err = ErrClosed
			return
		}
		c.watch = w
		files = c.filesLocked()
	})
	if err != nil {
		_ = fw.close()
		return err
	}
	w.update(files)
	e.wg.Go(func() { c.watchLoop(w) })
	return nil
}

// filesLocked are the files the configuration in force was read from.
func (c *configParts) filesLocked() []string {
	if c.e.res == nil {
		return nil
	}
	return append(slices.Clip(c.e.res.Files), c.e.pins.filesLocked()...)
}

// update watches files and their directories, again after each reload: a
// file replaced by a rename is a new file to watch.
func (w *watcher) update(files []string) {
	lock.With(&w.mu, func() {
		for _, f := range files {
			f = filepath.Clean(f)
			w.files[f] = true
			if st, err := os.Stat(filepath.Dir(f)); err != nil || !st.IsDir() {
				continue
			}
			_ = w.fs.watch(f) // a directory that went away meanwhile is not watched
		}
	})
}

// relevant reports whether an event concerns a config file ("" is lost
// events, which may have).
func (w *watcher) relevant(name string) (ok bool) {
	if name == "" {
		return true
	}
	lock.With(&w.mu, func() { ok = w.files[filepath.Clean(name)] })
	return ok
}

func (w *watcher) close() {
	lock.With(&w.mu, func() {
		if w.timer != nil {
			w.timer.Stop()
		}
	})
	_ = w.fs.close()
	<-w.done
}

// watchLoop debounces events and reloads.
func (c *configParts) watchLoop(w *watcher) {
	defer close(w.done)
	for {
		select {
		case name, ok := <-w.fs.names():
			if !ok {
				return
			}
			if !w.relevant(name) {
				continue
			}
			lock.With(&w.mu, func() {
				if w.timer != nil {
					w.timer.Stop()
				}
				w.timer = time.AfterFunc(watchDebounce, func() { c.watchReload(w) })
			})
		case err, ok := <-w.fs.errs():
			if !ok {
				return
			}
			c.e.log.Warn("watching config files", "err", err)
		}
	}
}

// watchReload reloads after the debounce and watches any new files.
func (c *configParts) watchReload(w *watcher) {
	e := c.e
	closed := false
	e.locked(func() { closed = e.closed })
	if closed {
		return
	}
	if err := e.Reload(context.Background()); err != nil {
		e.log.Warn("reloading configuration", "err", err)
		return
	}
	var files []string
	e.locked(func() { files = c.filesLocked() })
	w.update(files)
}
