// Package localgate admits the connects of local MCP servers (stdio, sdk),
// which start processes on this machine: only a few of those that use the
// CPU at once, and any number (up to a bound) of those that wait.
package localgate

import (
	"context"
	"sync"
	"time"

	"github.com/mcpdeck/mcpdeck/engine/lock"
)

// Gate admits the connects of local servers (stdio, sdk), which start
// processes on this machine. MCP_SERVER_CONNECTION_BATCH_SIZE fixes how many
// run at once. By default a connect holds one of 3 places only while it
// competes for the CPU: once its process tree is seen using no CPU between
// two looks (it waits: an npx download, a slow network, a server that takes
// its time), its place goes to the next, up to maxLocalStarts connects
// under way. So servers that start by computing still start 3 at a time,
// and those that wait all wait together. A connect whose process the gate
// cannot watch (an in-process sdk server, a system without /proc) counts
// as waiting once under way for idleAfter.
type Gate struct {
	base, max int
	adaptive  bool
	cpu       CPUReader

	mu      sync.Mutex
	places  map[*Place]struct{} // connects under way
	waiting int                 // callers blocked in Acquire
	quit    chan struct{}       // ends the poll loop, which runs while someone waits; nil when none runs
	room    chan struct{}       // closed (and replaced) when a place frees up
}

// CPUReader returns the CPU time a process and its descendants have used
// so far; ok is false when it cannot tell (the process is gone, or the
// system offers no way to read it).
type CPUReader func(pid int) (used time.Duration, ok bool)

// Bounds of the adaptive gate.
const (
	defaultLocalBatch = 3
	maxLocalStarts    = 32
	pollEvery         = 20 * time.Millisecond
	idleAfter         = 150 * time.Millisecond
)

// New is a gate for fixed connects at once (MCP_SERVER_CONNECTION_BATCH_SIZE),
// or, with fixed 0, the adaptive gate that reads the CPU use of each
// connect's process tree with cpu (TreeCPU).
func New(fixed int, cpu CPUReader) *Gate {
	g := &Gate{base: defaultLocalBatch, max: maxLocalStarts, adaptive: fixed == 0, cpu: cpu, places: map[*Place]struct{}{}, room: make(chan struct{})}
	if fixed > 0 {
		g.base, g.max = fixed, fixed
	}
	return g
}

// Place is one connect's place in the gate.
type Place struct {
	g     *Gate
	since time.Time // admitted
	// Guarded by g.mu:
	pid     int           // its process, 0 until Started
	last    time.Duration // CPU its tree had used at the previous look
	sampled bool          // last is set
	idle    bool          // seen waiting at the last look: it holds none of the base places
}

// Acquire waits for a place and returns it; the caller gives it back with
// Release.
func (g *Gate) Acquire(ctx context.Context) (*Place, error) {
	p := &Place{g: g}
	waited := false // counted in g.waiting
	for {
		var room chan struct{}
		lock.With(&g.mu, func() {
			if g.admitsLocked() {
				p.since = time.Now()
				g.places[p] = struct{}{}
				if waited {
					g.leaveLocked()
				}
				return
			}
			room = g.room
			if !waited {
				waited = true
				g.waiting++
			}
			if g.adaptive && g.quit == nil {
				g.quit = make(chan struct{})
				go g.poll(g.quit)
			}
		})
		if room == nil {
			return p, nil
		}
		select {
		case <-room:
		case <-ctx.Done():
			lock.With(&g.mu, g.leaveLocked)
			return nil, ctx.Err()
		}
	}
}

// leaveLocked counts a waiter out; the last one ends the poll loop.
// Callers hold g.mu.
func (g *Gate) leaveLocked() {
	g.waiting--
	if g.waiting == 0 && g.quit != nil {
		close(g.quit)
		g.quit = nil
	}
}

// admitsLocked reports whether one more connect may start: fewer than base
// connects compete for the CPU, and the gate is under its bound.
func (g *Gate) admitsLocked() bool {
	if len(g.places) >= g.max {
		return false
	}
	competing := 0
	for p := range g.places {
		if !p.idle {
			competing++
		}
	}
	return competing < g.base
}

// Started tells the gate the process the connect started, whose tree's CPU
// use decides whether it still competes. The first look is taken now, so
// a process that goes straight to waiting is seen waiting at the next poll.
func (p *Place) Started(pid int) {
	g := p.g
	var used time.Duration
	known := false
	if g.adaptive {
		used, known = g.cpu(pid)
	}
	lock.With(&g.mu, func() {
		p.pid = pid
		if known {
			p.last, p.sampled = used, true
		}
	})
}

// Release gives the place back.
func (p *Place) Release() {
	g := p.g
	lock.With(&g.mu, func() {
		delete(g.places, p)
		g.wakeLocked()
	})
}

// poll looks at every connect under way each pollEvery until quit is
// closed (no one waits any more), and lets the waiters in when a connect
// turned out to be waiting.
func (g *Gate) poll(quit chan struct{}) {
	t := time.NewTicker(pollEvery)
	defer t.Stop()
	for {
		select {
		case <-quit:
			return
		case <-t.C:
		}
		type look struct {
			p   *Place
			pid int
		}
		var looks []look
		lock.With(&g.mu, func() {
			for p := range g.places {
				looks = append(looks, look{p, p.pid})
			}
		})
		now := time.Now()
		used := make([]time.Duration, len(looks))
		known := make([]bool, len(looks))
		for i, l := range looks { // /proc reads, outside the lock
			if l.pid != 0 {
				used[i], known[i] = g.cpu(l.pid)
			}
		}
		lock.With(&g.mu, func() {
			freed := false
			for i, l := range looks {
				was := l.p.idle
				if l.p.judge(now, used[i], known[i]) && !was {
					freed = true
				}
			}
			if freed {
				g.wakeLocked()
			}
		})
	}
}

// judge takes one look at the connect: it is waiting when its tree used no
// CPU since the previous look (and competes again once it does), or, when
// its CPU cannot be read, once it has been under way for idleAfter. It
// reports whether p is idle. Callers hold g.mu.
func (p *Place) judge(now time.Time, used time.Duration, known bool) bool {
	if !known {
		p.idle = now.Sub(p.since) >= idleAfter
		return p.idle
	}
	p.idle = p.sampled && used == p.last
	p.last, p.sampled = used, true
	return p.idle
}

// wakeLocked lets the waiters look again. Callers hold g.mu.
func (g *Gate) wakeLocked() {
	close(g.room)
	g.room = make(chan struct{})
}
