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

// busy counts a request to server as under way until the returned func
// runs: a server working on a long call (a single-threaded one cannot even
// answer a ping meanwhile) is not idle, and is not pinged.
func (e *Engine) busy(server string) func() {
	e.mu.Lock()
	defer e.mu.Unlock()
	en := e.byName[server]
	if en == nil {
		return func() {}
	}
	en.inFlight++
	return func() {
		e.mu.Lock()
		defer e.mu.Unlock()
		en.inFlight--
	}
}

// idle reports whether server has no request under way.
func (e *Engine) idle(server string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	en := e.byName[server]
	return en == nil || en.inFlight == 0
}
