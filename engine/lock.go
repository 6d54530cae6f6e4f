package engine

import (
	"github.com/mcpdeck/mcpdeck/engine/lock"
)

// locked runs f holding the engine's mutex, which guards the engine's
// fields, every entry and the parts' fields.
func (e *Engine) locked(f func()) { lock.With(&e.mu, f) }

// withEntry runs f on the entry of server, holding the engine's mutex, and
// returns its error; ErrClosed after Close, ErrUnknownServer for a name
// that is not configured.
func (e *Engine) withEntry(server string, f func(en *entry) error) (err error) {
	e.locked(func() {
		switch en := e.byName[server]; {
		case e.closed:
			err = ErrClosed
		case en == nil:
			err = unknownServer(server)
		default:
			err = f(en)
		}
	})
	return err
}

// ifEntry runs f on the entry of server, holding the engine's mutex, unless
// the engine is closed or the server gone: for what arrives late (a timer,
// a notification, a goroutine's result), which then has nothing to do.
func (e *Engine) ifEntry(server string, f func(en *entry)) {
	e.locked(func() {
		if en := e.byName[server]; en != nil && !e.closed {
			f(en)
		}
	})
}
