package serve

import (
	"context"
	"sync"
	"time"

	"github.com/mcpdeck/mcpdeck/engine/lock"
)

// startup holds an agent's first answers — a list, or a call, prompt,
// read or completion that comes before any list — until every offered
// server serve knows no lists of has connected or failed (ready), so a
// one-shot client's only list is complete. A server serve remembers lists
// of (known.go) is answered for at once from them and never holds it; one
// that fails is not waited for. The wait is bounded by limit: the engine's
// connect timeout, or --wait when shorter. It also says when every server
// settled, known or not (settled: --prefix never judges names then).
type startup struct {
	// limit is how long serve waits for a server to come, for the first
	// answer and for a call to a server still connecting (await.go).
	limit time.Duration

	ready     chan struct{}
	readyOnce sync.Once
	settled   chan struct{}
	settleOn  sync.Once

	mu    sync.Mutex
	timer *time.Timer // ends the wait at limit; nil before begin
}

func newStartup() startup {
	return startup{ready: make(chan struct{}), settled: make(chan struct{})}
}

// serverWait is how long serve waits for servers: connect (the engine's
// connect timeout), capped by wait when it is positive (--wait); a
// negative wait is no wait at all.
func serverWait(wait, connect time.Duration) time.Duration {
	switch {
	case wait < 0:
		return 0
	case wait > 0 && wait < connect:
		return wait
	}
	return connect
}

// begin starts the wait: after limit, answers no longer wait for anyone.
func (s *startup) begin(limit time.Duration) {
	lock.With(&s.mu, func() {
		s.limit = limit
		if s.timer == nil {
			s.timer = time.AfterFunc(limit, s.markReady)
		}
	})
}

// end stops the wait's timer and lets every held answer go (the gateway
// closes: nothing is coming any more).
func (s *startup) end() {
	lock.With(&s.mu, func() {
		if s.timer != nil {
			s.timer.Stop()
		}
	})
	s.markReady()
}

// waitFor is how long serve waits for one server to come.
func (s *startup) waitFor() (d time.Duration) {
	lock.With(&s.mu, func() { d = s.limit })
	return d
}

func (s *startup) markReady() { s.readyOnce.Do(func() { close(s.ready) }) }

// markSettled says every server settled: answers need wait no longer
// either.
func (s *startup) markSettled() {
	s.settleOn.Do(func() { close(s.settled) })
	s.markReady()
}

// isReady reports whether first answers are given now.
func (s *startup) isReady() bool {
	select {
	case <-s.ready:
		return true
	default:
		return false
	}
}

// waitReady holds a first answer until ready (or the request ended).
func (s *startup) waitReady(ctx context.Context) {
	select {
	case <-s.ready:
	case <-ctx.Done():
	}
}
