package engine

import "sync"

// publisher hands snapshots to one reader through a one-slot channel: a new
// snapshot replaces one the reader has not taken yet, so a slow reader sees
// the latest state and the engine never blocks on it.
type publisher struct {
	mu     sync.Mutex
	ch     chan Snapshot
	closed bool
}

func newPublisher() *publisher { return &publisher{ch: make(chan Snapshot, 1)} }

// publish replaces any unread snapshot with s; it never blocks.
func (p *publisher) publish(s Snapshot) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	select {
	case <-p.ch: // drop the stale one the reader has not taken
	default:
	}
	p.ch <- s // cannot block: we hold the only send right and the slot is empty
}

// close ends the channel after a final snapshot, so readers' range loops end.
func (p *publisher) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.closed {
		p.closed = true
		close(p.ch)
	}
}
