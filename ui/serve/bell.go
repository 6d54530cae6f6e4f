package serve

import "sync/atomic"

// bell wakes whoever waits for the gateway to change: ring closes the
// channel wait handed out and puts a fresh one in its place. A waiter
// takes the channel before it reads what it waits on, so a change made
// after the read rings that channel. It is lock-free: each ring swaps in
// its own channel and closes the one it took out, so no channel is closed
// twice.
type bell struct {
	cur atomic.Pointer[chan struct{}]
}

func newBell() *bell {
	b := &bell{}
	ch := make(chan struct{})
	b.cur.Store(&ch)
	return b
}

// wait is the channel the next ring closes.
func (b *bell) wait() <-chan struct{} { return *b.cur.Load() }

// ring wakes every waiter.
func (b *bell) ring() {
	ch := make(chan struct{})
	close(*b.cur.Swap(&ch))
}
