package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mcpdeck/mcpdeck/transports"
)

// missedPingLimit is how many pings in a row may go unanswered before a
// connection counts as lost: a server that stopped answering is found
// within pingInterval × (missedPingLimit + 1), 90 s by default.
const missedPingLimit = 2

// maxPingWait bounds one ping.
const maxPingWait = 10 * time.Second

// ErrUnresponsive is the loss of a connection whose server stopped
// answering pings.
var ErrUnresponsive = errors.New("the server stopped answering")

// pinger is the health check of one idle open connection: monitor calls
// tick every pingInterval while no request is under way; it reports the
// loss after missedPingLimit misses in a row.
type pinger struct {
	conn   session
	wait   time.Duration
	missed int
}

func newPinger(conn session, interval time.Duration) *pinger {
	return &pinger{conn: conn, wait: min(interval, maxPingWait)}
}

// tick pings once; it returns an error when the connection must be
// treated as lost.
func (p *pinger) tick(ctx context.Context) error {
	pctx, cancel := context.WithTimeout(ctx, p.wait)
	err := p.conn.Ping(pctx)
	cancel()
	// an error answer ("method not found" from a server without ping) is
	// an answer: the server is there
	if err == nil || ctx.Err() != nil || transports.Classify(err) == transports.ClassRPC {
		p.missed = 0
		return nil
	}
	if p.missed++; p.missed < missedPingLimit {
		return nil
	}
	return fmt.Errorf("%w: %d pings in a row went unanswered (last: %w)", ErrUnresponsive, p.missed, err)
}

// healthParts tells whether a server is working on a request, so the
// health check (pinger) leaves a busy server alone.
type healthParts struct{ e *Engine }

// healthState is what health keeps per server.
type healthState struct {
	inFlight int // requests under way: the health check waits while any are
}

// busy counts a request to server as under way until the returned func
// runs: a server working on a long call (a single-threaded one cannot even
// answer a ping meanwhile) is not idle, and is not pinged.
func (p *healthParts) busy(server string) func() {
	var h *healthState
	p.e.locked(func() {
		if en := p.e.byName[server]; en != nil {
			h = &en.health
			h.inFlight++
		}
	})
	if h == nil {
		return func() {}
	}
	return func() { p.e.locked(func() { h.inFlight-- }) }
}

// idle reports whether server has no request under way.
func (p *healthParts) idle(server string) (idle bool) {
	p.e.locked(func() {
		en := p.e.byName[server]
		idle = en == nil || en.health.inFlight == 0
	})
	return idle
}
