package engine

import (
	"context"
	"slices"
	"time"

	"github.com/mcpdeck/mcpdeck/engine/filewatch"
)

// watchDebounce collapses an editor's burst of writes into one reload (of
// the config files here, of the editors' lock files in engine/idefind).
const watchDebounce = 250 * time.Millisecond

// startWatch begins watching the files of the current config.
func (c *configParts) startWatch() error {
	e := c.e
	var w *filewatch.Watcher
	w, err := filewatch.New(watchDebounce, func() { c.watchReload(w) }, func(err error) { e.log.Warn("watching config files", "err", err) })
	if err != nil {
		return err
	}
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
		w.Close()
		return err
	}
	w.Update(files)
	e.wg.Go(w.Run)
	return nil
}

// filesLocked are the files the configuration in force was read from.
func (c *configParts) filesLocked() []string {
	if c.e.res == nil {
		return nil
	}
	return append(slices.Clip(c.e.res.Files), c.e.pins.filesLocked()...)
}

// watchReload reloads after the debounce and watches any new files.
func (c *configParts) watchReload(w *filewatch.Watcher) {
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
	w.Update(files)
}
