// Package localgate admits the connects of local MCP servers (stdio, sdk),
// which start processes on this machine: a few at a time, and more while
// those wait idle and the CPU is not busy.
package localgate

import (
	"context"
	"sync"
	"time"

	"github.com/mcpdeck/mcpdeck/engine/lock"
)

// Gate admits the connects of local servers (stdio, sdk), which start
// processes on this machine. MCP_SERVER_CONNECTION_BATCH_SIZE fixes how many
// run at once. By default 3 run at once, and a connect still under way after
// lendAfter — its server is waiting, not working: an npx download, a slow
// network — lends its place to one more, while the machine's CPU is not
// busy, up to maxLocalStarts at once. Servers that start by using the CPU
// finish before lending, so they still start 3 at a time; a busy machine
// stops the lending until it calms down.
type Gate struct {
	base, max int
	adaptive  bool
	busy      func() bool // reports a busy CPU (CPUBusy)

	mu     sync.Mutex
	limit  int           // connects allowed at once now: base plus those lent
	active int           // connects under way
	room   chan struct{} // closed (and replaced) when a place frees up
}

// Bounds of the adaptive gate.
const (
	defaultLocalBatch = 3
	maxLocalStarts    = 32
	lendAfter         = 150 * time.Millisecond
)

// New is a gate for fixed connects at once (MCP_SERVER_CONNECTION_BATCH_SIZE),
// or, with fixed 0, the adaptive gate that asks busy whether the CPU is busy.
func New(fixed int, busy func() bool) *Gate {
	g := &Gate{base: defaultLocalBatch, max: maxLocalStarts, adaptive: fixed == 0, busy: busy, room: make(chan struct{})}
	if fixed > 0 {
		g.base, g.max = fixed, fixed
	}
	g.limit = g.base
	return g
}

// Acquire waits for a place and returns the function that gives it back.
func (g *Gate) Acquire(ctx context.Context) (release func(), err error) {
	for {
		var room chan struct{}
		lock.With(&g.mu, func() {
			if g.active < g.limit {
				g.active++
				return
			}
			room = g.room
		})
		if room == nil {
			break
		}
		select {
		case <-room:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	h := &place{}
	if g.adaptive {
		lock.With(&g.mu, func() { // lend reads h.timer under g.mu
			h.timer = time.AfterFunc(lendAfter, func() { g.lend(h) })
		})
	}
	return func() {
		lock.With(&g.mu, func() {
			if h.timer != nil { // a fixed gate has none
				h.timer.Stop()
			}
			h.done = true
			g.active--
			if h.lent {
				g.limit--
			}
			g.wakeLocked()
		})
	}, nil
}

// place is one connect's place in the gate; guarded by Gate.mu.
type place struct {
	timer      *time.Timer // asks lend after lendAfter (adaptive gate)
	done, lent bool
}

// lend gives one more place while connect h still waits, unless it
// finished, already lent, the gate is at its bound, or the CPU is busy
// (then it asks again after lendAfter).
func (g *Gate) lend(h *place) {
	busy := g.busy()
	lock.With(&g.mu, func() {
		switch {
		case h.done || h.lent || g.limit >= g.max:
		case busy:
			h.timer.Reset(lendAfter) // ask again once the CPU may have calmed
		default:
			h.lent = true
			g.limit++
			g.wakeLocked()
		}
	})
}

// wakeLocked lets the waiters look again. Callers hold g.mu.
func (g *Gate) wakeLocked() {
	close(g.room)
	g.room = make(chan struct{})
}
