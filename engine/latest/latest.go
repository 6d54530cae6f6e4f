// Package latest is a one-slot channel where a new value replaces one the
// reader has not taken yet: the writer never blocks, and a slow reader sees
// the most recent value. The engine publishes snapshots through it and the
// TUI relays a running call's progress through it.
//
// It lives under engine/ (not model/, which holds the domain rules) so that
// both the engine and the UI above it can import it.
package latest

import (
	"sync"

	"github.com/mcpdeck/mcpdeck/engine/lock"
)

// Chan is a latest-wins channel for one reader. The zero value is not
// ready: use New.
type Chan[T any] struct {
	mu     sync.Mutex
	ch     chan T
	closed bool
}

// New returns an open, empty Chan.
func New[T any]() *Chan[T] { return &Chan[T]{ch: make(chan T, 1)} }

// Send replaces any unread value with v; it never blocks. After Close it
// does nothing.
func (c *Chan[T]) Send(v T) {
	lock.With(&c.mu, func() {
		if c.closed {
			return
		}
		select {
		case <-c.ch: // drop the stale one the reader has not taken
		default:
		}
		c.ch <- v // cannot block: we hold the only send right and the slot is empty
	})
}

// Close ends the channel: the reader still gets the unread value, if any,
// and then sees it closed, so range loops end. Closing twice is harmless.
func (c *Chan[T]) Close() {
	lock.With(&c.mu, func() {
		if !c.closed {
			c.closed = true
			close(c.ch)
		}
	})
}

// Out is the channel the reader receives from.
func (c *Chan[T]) Out() <-chan T { return c.ch }
