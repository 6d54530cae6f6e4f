package engine

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// monitor waits for the connection to end and starts the reconnect policy.
// It also copies new stderr lines into snapshots when the transport signals
// them, at most once per stderrPoll, so a chatty server cannot flood the UI
// with snapshots and a quiet one costs nothing.
func (e *Engine) monitor(ctx context.Context, name string, mask *textsafe.Masker, gen uint64, conn session) {
	changed := conn.StderrChanged()
	wait := time.NewTimer(stderrPoll)
	wait.Stop()
	defer wait.Stop()
	var pings <-chan time.Time // nil: the health check is off
	health := newPinger(conn, e.set.pingInterval)
	if e.set.pingInterval > 0 {
		t := time.NewTicker(e.set.pingInterval)
		defer t.Stop()
		pings = t.C
	}
	var lost error // set when the server stopped answering
loop:
	for {
		select {
		case <-conn.Done():
			break loop
		case <-ctx.Done():
			return
		case <-pings:
			if !e.idle(name) {
				health.missed = 0 // a call is under way: its own timeout watches the server
				continue
			}
			if lost = health.tick(ctx); lost != nil {
				break loop
			}
		case <-changed:
			e.refreshStderr(name, mask, gen, conn)
			// Lines arriving meanwhile leave one token in changed.
			wait.Reset(stderrPoll)
			select {
			case <-wait.C:
			case <-conn.Done():
				break loop
			case <-ctx.Done():
				return
			}
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	en := e.byName[name]
	if e.closed || en == nil || en.conn != conn {
		return
	}
	err := conn.Err()
	switch {
	case lost != nil:
		err = lost // the step's effects close the connection
	case err == nil:
		err = errors.New("connection closed by the server")
	}
	e.lostLocked(en, gen, err)
}

// lostLocked reports a connection of generation gen that ended (or must
// end). Callers hold e.mu.
func (e *Engine) lostLocked(en *entry, gen uint64, err error) {
	f := e.describe(en, err)
	if gen == en.st.gen {
		e.log.Info("connection lost", "server", en.srv.Name, "err", f.detail)
	}
	e.feed(en, evLost{at: now(), gen: gen, fail: f, jitter: e.rnd()}, nil)
}

// refreshStderr publishes the stderr tail, masked with mask (the
// server's), if it changed.
func (e *Engine) refreshStderr(name string, mask *textsafe.Masker, gen uint64, conn session) {
	tail := mask.MaskLines(conn.StderrTail(stderrTailLines))
	e.mu.Lock()
	defer e.mu.Unlock()
	en := e.byName[name]
	if e.closed || en == nil || en.st.gen != gen || slices.Equal(tail, en.s.StderrTail) {
		return
	}
	en.s.StderrTail = tail
	e.publishLocked()
}

// stderrPoll bounds stderr-driven snapshots to 5 a second per server.
const stderrPoll = 200 * time.Millisecond
