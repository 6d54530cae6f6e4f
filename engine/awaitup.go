package engine

import (
	"context"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
)

// A request to a server on its way to a connection (pending: starting,
// reconnecting after a loss, or waiting out its backoff) waits for it, at
// most the connect timeout, rather than failing at once: a batch's next
// line after a connection loss, a call made while the server restarts.
// A server in any other state fails the request at once, saying its
// state, as before.

// awaitUp waits while server is pending, at most the connect timeout (or
// until ctx ends, or the engine closes).
func (c *callParts) awaitUp(ctx context.Context, server string) {
	e := c.e
	limit := time.NewTimer(e.set.connectTimeout)
	defer limit.Stop()
	for {
		var changed chan struct{}
		e.ifEntry(server, func(en *entry) {
			if !e.closed && en.st.Current() == model.StatePending {
				changed = e.changed
			}
		})
		if changed == nil {
			return
		}
		select {
		case <-changed:
		case <-limit.C:
			return
		case <-ctx.Done():
			return
		}
	}
}
