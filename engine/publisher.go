package engine

import "github.com/mcpdeck/mcpdeck/engine/latest"

// publisher hands snapshots to one reader through a latest-wins channel
// (engine/latest): a new snapshot replaces one the reader has not taken yet,
// so a slow reader sees the latest state and the engine never blocks on it.
type publisher struct {
	c  *latest.Chan[Snapshot]
	ch <-chan Snapshot // what Updates returns
}

func newPublisher() *publisher {
	c := latest.New[Snapshot]()
	return &publisher{c: c, ch: c.Out()}
}

// publish replaces any unread snapshot with s; it never blocks.
func (p *publisher) publish(s Snapshot) { p.c.Send(s) }

// close ends the channel after a final snapshot, so readers' range loops end.
func (p *publisher) close() { p.c.Close() }
