package idefind

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Watch follows the lock-file directory, so that an editor opening or
// closing the project comes and goes without a poll: the directory
// itself or, until an editor creates it, the nearest of the two above it
// that exists (nearest). A failed attempt to reach an editor wakes it too
// (wake): a killed editor leaves its lock file behind, and its dropped
// connection is retried, so the retry's failure notices the stale file.
// After debounce with no further event it calls reload, in a goroutine
// that spawn starts, until ctx ends.
func (p *Finder) Watch(ctx context.Context, debounce time.Duration, spawn func(func()), reload func(context.Context) error) error {
	if p.dir == "" {
		return nil
	}
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	watching, ok := p.nearest()
	if ok {
		err = fw.Add(watching)
	} else {
		err = fmt.Errorf("none of %s and the two directories above it exists", p.dir)
	}
	if err != nil {
		_ = fw.Close()
		return err
	}
	spawn(func() { p.loop(ctx, fw, watching, debounce, reload) })
	return nil
}

// nearest is the deepest of the lock-file directory and the two above it
// that exists.
func (p *Finder) nearest() (string, bool) {
	d := p.dir
	for range 3 {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d, true
		}
		d = filepath.Dir(d)
	}
	return "", false
}

// Wake asks the watcher to look at the lock files again; it never blocks.
func (p *Finder) Wake() {
	select {
	case p.poke <- struct{}{}:
	default:
	}
}

// loop collects events for debounce, then reloads once.
func (p *Finder) loop(ctx context.Context, fw *fsnotify.Watcher, watching string, debounce time.Duration, reload func(context.Context) error) {
	defer fw.Close()
	var due <-chan time.Time
	arm := func() { due = time.After(debounce) }
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-fw.Events:
			if !ok {
				return
			}
			name := filepath.Clean(ev.Name)
			if onTheWay(name, p.dir) { // the directory or one above it came or went
				watching = p.follow(fw, watching)
				arm()
			} else if strings.HasSuffix(name, ".lock") && filepath.Dir(name) == p.dir {
				arm()
			}
		case err, ok := <-fw.Errors:
			if !ok {
				return
			}
			p.log.Warn("watching editors' lock files", "err", err)
		case <-p.poke:
			arm()
		case <-due:
			due = nil
			if err := reload(context.Background()); err != nil && ctx.Err() == nil {
				p.log.Warn("reloading after an editor came or went", "err", err)
			}
		}
	}
}

// onTheWay reports whether path is dir or one of the directories above it.
func onTheWay(path, dir string) bool {
	return path == dir || strings.HasPrefix(dir, strings.TrimSuffix(path, string(filepath.Separator))+string(filepath.Separator))
}

// follow moves the watch to the nearest existing directory on the way to
// the lock files; it returns what is watched.
func (p *Finder) follow(fw *fsnotify.Watcher, watching string) string {
	next, ok := p.nearest()
	if !ok || next == watching || fw.Add(next) != nil {
		return watching
	}
	_ = fw.Remove(watching)
	return next
}
