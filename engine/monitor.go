package engine

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/mcpdeck/mcpdeck/engine/lifecycle"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// monitor waits for the connection to end and starts the reconnect policy.
// It also copies new stderr lines into snapshots when the transport signals
// them, at most once per stderrPoll, so a chatty server cannot flood the UI
// with snapshots and a quiet one costs nothing.
func (r *runner) monitor(ctx context.Context, name string, mask *textsafe.Masker, gen uint64, conn session) {
	e := r.e
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
			if !e.health.idle(name) {
				health.missed = 0 // a call is under way: its own timeout watches the server
				continue
			}
			if lost = health.tick(ctx); lost != nil {
				break loop
			}
		case <-changed:
			r.refreshStderr(name, mask, gen, conn)
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
	e.ifEntry(name, func(en *entry) {
		if en.conn.conn != conn {
			return
		}
		err := conn.Err()
		switch {
		case lost != nil:
			err = lost // the step's effects close the connection
		case err == nil:
			err = errors.New("connection closed by the server")
		}
		r.lostLocked(en, gen, err)
	})
}

// lostLocked reports a connection of generation gen that ended (or must
// end). Callers hold e.mu.
func (r *runner) lostLocked(en *entry, gen uint64, err error) {
	f := r.describe(en, err)
	if gen == en.st.Gen() {
		r.e.log.Info("connection lost", "server", en.srv.Name, "err", f.Detail)
	}
	r.feed(en, lifecycle.Lost{At: now(), Gen: gen, Fail: f, Jitter: r.e.rnd()}, nil)
}

// refreshStderr publishes the stderr tail, masked with mask (the
// server's), if it changed.
func (r *runner) refreshStderr(name string, mask *textsafe.Masker, gen uint64, conn session) {
	tail := mask.MaskLines(conn.StderrTail(stderrTailLines))
	r.e.ifEntry(name, func(en *entry) {
		if en.st.Gen() != gen || slices.Equal(tail, en.conn.stderr) {
			return
		}
		en.conn.stderr = tail
		r.e.publishLocked()
	})
}

// stderrPoll bounds stderr-driven snapshots to 5 a second per server.
const stderrPoll = 200 * time.Millisecond
