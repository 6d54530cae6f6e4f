// Package filewatch says when one of a set of files changes: it watches
// each file's directory too, so a file created later (a new .mcp.json)
// and a rename into place (an editor's atomic save) are noticed, and it
// collapses a burst of changes into one call. On Linux the kernel is
// asked only about those files and names coming and going in their
// directories (notify_linux.go); elsewhere fsnotify reports everything in
// the directories (notify_other.go) and the Watcher filters by name.
package filewatch

import (
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/mcpdeck/mcpdeck/engine/lock"
)

// Watcher calls changed once a burst of changes to its files has been
// quiet for its debounce, and failed with each error the system reports.
type Watcher struct {
	fs       fileNotifier
	done     chan struct{}
	debounce time.Duration
	changed  func()
	failed   func(error)

	mu      sync.Mutex
	files   map[string]bool
	timer   *time.Timer
	running bool // Run has started: Close waits for it to end
	closed  bool // Close has begun: a Run that starts now ends at once
}

// fileNotifier reports the paths of changed files.
type fileNotifier interface {
	watch(file string) error // file and its directory, which exists
	names() <-chan string    // closed by close; "" when events were lost
	errs() <-chan error
	close() error
}

// New is a Watcher of no files yet; Run delivers its events.
func New(debounce time.Duration, changed func(), failed func(error)) (*Watcher, error) {
	fw, err := newNotifier()
	if err != nil {
		return nil, err
	}
	return &Watcher{fs: fw, done: make(chan struct{}), debounce: debounce, changed: changed, failed: failed, files: map[string]bool{}}, nil
}

// Update watches files and their directories, again after each change:
// a file replaced by a rename is a new file to watch.
func (w *Watcher) Update(files []string) {
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

// relevant reports whether an event concerns a watched file ("" is lost
// events, which may have).
func (w *Watcher) relevant(name string) (ok bool) {
	if name == "" {
		return true
	}
	lock.With(&w.mu, func() { ok = w.files[filepath.Clean(name)] })
	return ok
}

// Close stops the watch and, when Run has started, waits for it to end.
func (w *Watcher) Close() {
	var running bool
	lock.With(&w.mu, func() {
		w.closed, running = true, w.running
		if w.timer != nil {
			w.timer.Stop()
		}
	})
	_ = w.fs.close()
	if running {
		<-w.done
	}
}

// Run debounces events and calls changed, until Close.
func (w *Watcher) Run() {
	defer close(w.done)
	var closed bool
	lock.With(&w.mu, func() { closed, w.running = w.closed, true })
	if closed {
		return
	}
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
				w.timer = time.AfterFunc(w.debounce, w.changed)
			})
		case err, ok := <-w.fs.errs():
			if !ok {
				return
			}
			w.failed(err)
		}
	}
}
