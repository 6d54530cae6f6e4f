package engine

import (
	"context"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

// watch follows the lock-file directory, so that an editor opening or
// closing the project comes and goes without a poll: the directory
// itself, or, until an editor creates it, the directory above it. A
// failed attempt to reach an editor wakes it too (wake): a killed editor
// leaves its lock file behind, and its dropped connection is retried, so
// the retry's failure notices the stale file. It runs until the engine
// closes.
func (p *ideParts) watch() error {
	if p.dir == "" {
		return nil
	}
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	watching := p.dir
	if fw.Add(p.dir) != nil {
		watching = filepath.Dir(p.dir)
		if err := fw.Add(watching); err != nil {
			_ = fw.Close()
			return err
		}
	}
	p.e.wg.Go(func() { p.loop(fw, watching) })
	return nil
}

// wake asks the watcher to look at the lock files again; it never blocks.
func (p *ideParts) wake() {
	select {
	case p.poke <- struct{}{}:
	default:
	}
}

// loop collects events for watchDebounce, then reloads once.
func (p *ideParts) loop(fw *fsnotify.Watcher, watching string) {
	defer fw.Close()
	var due <-chan time.Time
	arm := func() { due = time.After(watchDebounce) }
	for {
		select {
		case <-p.e.ctx.Done():
			return
		case ev, ok := <-fw.Events:
			if !ok {
				return
			}
			watching = p.follow(fw, watching, ev)
			if filepath.Clean(ev.Name) == p.dir || strings.HasSuffix(ev.Name, ".lock") {
				arm()
			}
		case err, ok := <-fw.Errors:
			if !ok {
				return
			}
			p.e.log.Warn("watching editors' lock files", "err", err)
		case <-p.poke:
			arm()
		case <-due:
			due = nil
			if err := p.e.Reload(context.Background()); err != nil && p.e.ctx.Err() == nil {
				p.e.log.Warn("reloading after an editor came or went", "err", err)
			}
		}
	}
}

// follow moves the watch to the lock-file directory once it appears, and
// back to the one above if it is removed; it returns what is watched.
func (p *ideParts) follow(fw *fsnotify.Watcher, watching string, ev fsnotify.Event) string {
	if filepath.Clean(ev.Name) != p.dir {
		return watching
	}
	parent := filepath.Dir(p.dir)
	switch {
	case watching == parent && ev.Has(fsnotify.Create):
		if fw.Add(p.dir) == nil {
			_ = fw.Remove(parent)
			return p.dir
		}
	case watching == p.dir && (ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename)):
		if fw.Add(parent) == nil {
			return parent
		}
	}
	return watching
}
