package engine

import (
	"context"
	"sync"
	"time"
)

// localGate admits the connects of local servers (stdio, sdk), which start
// processes on this machine. MCP_SERVER_CONNECTION_BATCH_SIZE fixes how many
// run at once. By default 3 run at once, and a connect still under way after
// lendAfter — its server is waiting, not working: an npx download, a slow
// network — lends its place to one more, while the machine's CPU is not
// busy, up to maxLocalStarts at once. Servers that start by using the CPU
// finish before lending, so they still start 3 at a time; a busy machine
// stops the lending until it calms down.
type localGate struct {
	base, max int
	adaptive  bool
	busy      func() bool // reports a busy CPU (cpubusy_*.go)

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

func newLocalGate(fixed int, busy func() bool) *localGate {
	g := &localGate{base: defaultLocalBatch, max: maxLocalStarts, adaptive: fixed == 0, busy: busy, room: make(chan struct{})}
	if fixed > 0 {
		g.base, g.max = fixed, fixed
	}
	g.limit = g.base
	return g
}

// acquire waits for a place and returns the function that gives it back.
func (g *localGate) acquire(ctx context.Context) (release func(), err error) {
	for {
		g.mu.Lock()
		if g.active < g.limit {
			g.active++
			g.mu.Unlock()
			break
		}
		room := g.room
		g.mu.Unlock()
		select {
		case <-room:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	var done, lent bool
	var timer *time.Timer
	if g.adaptive {
		g.mu.Lock() // the callback reads timer under g.mu
		defer g.mu.Unlock()
		timer = time.AfterFunc(lendAfter, func() {
			busy := g.busy()
			g.mu.Lock()
			defer g.mu.Unlock()
			switch {
			case done || lent || g.limit >= g.max:
			case busy:
				timer.Reset(lendAfter) // ask again once the CPU may have calmed
			default:
				lent = true
				g.limit++
				g.wakeLocked()
			}
		})
	}
	return func() {
		if timer != nil {
			timer.Stop()
		}
		g.mu.Lock()
		defer g.mu.Unlock()
		done = true
		g.active--
		if lent {
			g.limit--
		}
		g.wakeLocked()
	}, nil
}

// wakeLocked lets the waiters look again. Callers hold g.mu.
func (g *localGate) wakeLocked() {
	close(g.room)
	g.room = make(chan struct{})
}
