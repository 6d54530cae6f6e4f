package engine

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// watchDebounce collapses an editor's burst of writes into one reload.
const watchDebounce = 250 * time.Millisecond

// watcher reloads the engine when a config file changes. It watches the
// directories of every file Load consulted, so files created later (a new
// .mcp.json) are noticed too, and atomic rename-into-place writes as well.
type watcher struct {
	fs    *fsnotify.Watcher
	done  chan struct{}
	mu    sync.Mutex
	files map[string]bool
	dirs  map[string]bool
	timer *time.Timer
}

// startWatch begins watching the files of the current config.
func (e *Engine) startWatch() error {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	w := &watcher{fs: fw, done: make(chan struct{}), files: map[string]bool{}, dirs: map[string]bool{}}
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		_ = fw.Close()
		return ErrClosed
	}
	e.watch = w
	var files []string
	if e.res != nil {
		files = e.res.Files
	}
	e.mu.Unlock()
	w.update(files)
	e.wg.Go(func() { e.watchLoop(w) })
	return nil
}

// update watches the directories of files.
func (w *watcher) update(files []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, f := range files {
		f = filepath.Clean(f)
		w.files[f] = true
		dir := filepath.Dir(f)
		if w.dirs[dir] {
			continue
		}
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			continue
		}
		if err := w.fs.Add(dir); err == nil {
			w.dirs[dir] = true
		}
	}
}

// relevant reports whether an event concerns a config file.
func (w *watcher) relevant(name string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.files[filepath.Clean(name)]
}

func (w *watcher) close() {
	w.mu.Lock()
	if w.timer != nil {
		w.timer.Stop()
	}
	w.mu.Unlock()
	_ = w.fs.Close()
	<-w.done
}

// watchLoop debounces events and reloads.
func (e *Engine) watchLoop(w *watcher) {
	defer close(w.done)
	for {
		select {
		case ev, ok := <-w.fs.Events:
			if !ok {
				return
			}
			if !w.relevant(ev.Name) {
				continue
			}
			w.mu.Lock()
			if w.timer != nil {
				w.timer.Stop()
			}
			w.timer = time.AfterFunc(watchDebounce, func() { e.watchReload(w) })
			w.mu.Unlock()
		case err, ok := <-w.fs.Errors:
			if !ok {
				return
			}
			e.log.Warn("watching config files", "err", err)
		}
	}
}

// watchReload reloads after the debounce and watches any new files.
func (e *Engine) watchReload(w *watcher) {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return
	}
	e.mu.Unlock()
	if err := e.Reload(context.Background()); err != nil {
		e.log.Warn("reloading configuration", "err", err)
		return
	}
	e.mu.Lock()
	var files []string
	if e.res != nil {
		files = e.res.Files
	}
	e.mu.Unlock()
	w.update(files)
}
