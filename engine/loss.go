package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
)

// monitor waits for the connection to end and starts the reconnect policy.
// For stdio servers it also copies new stderr lines into snapshots, at most
// every stderrPoll, so a chatty server cannot flood the UI with snapshots.
func (e *Engine) monitor(ctx context.Context, name string, gen uint64, conn session, stdio bool) {
	var tick <-chan time.Time
	var t *time.Timer
	interval := stderrPoll
	if stdio {
		t = time.NewTimer(interval)
		defer t.Stop()
		tick = t.C
	}
	for done := false; !done; {
		select {
		case <-conn.Done():
			done = true
		case <-ctx.Done():
			return
		case <-tick:
			// Poll fast while the server writes, slowly when it is quiet,
			// so idle servers cost almost nothing.
			if e.refreshStderr(name, gen, conn) {
				interval = stderrPoll
			} else {
				interval = min(2*interval, stderrIdlePoll)
			}
			t.Reset(interval)
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	en := e.byName[name]
	if e.closed || en == nil || en.gen != gen || en.conn != conn {
		return
	}
	err := conn.Err()
	if err == nil {
		err = errors.New("connection closed by the server")
	}
	e.lostLocked(en, err)
}

// lostLocked handles a connection that ended: caches dropped, crash-loop
// guard checked, reconnect scheduled.
func (e *Engine) lostLocked(en *entry, err error) {
	conn := en.conn
	if conn != nil {
		en.s.StderrTail = conn.StderrTail(stderrTailLines)
	}
	quick := e.clock.Now().Sub(en.connectedAt) < crashWindow
	e.stopLocked(en)
	e.setError(en, err)
	e.log.Info("connection lost", "server", en.srv.Name, "err", err)
	if quick {
		en.quickCrash++
	} else {
		en.quickCrash = 0
	}
	if en.quickCrash >= crashLoopLimit {
		en.quickCrash = 0
		msg := fmt.Sprintf("Crash loop: the server stopped within %s of connecting %d times in a row; not restarting (last: %s)",
			crashWindow, crashLoopLimit, e.errs.humanize(err))
		en.s.Error = msg
		e.transition(en, model.StateFailed, msg)
		return
	}
	cls, _ := e.errs.classify(err)
	if cls == classAuth {
		e.needsAuthLocked(en)
		return
	}
	en.attempt = 0
	e.retryLocked(en, err)
}

// refreshStderr publishes the stderr tail if it changed, and says whether
// it did.
func (e *Engine) refreshStderr(name string, gen uint64, conn session) bool {
	tail := conn.StderrTail(stderrTailLines)
	e.mu.Lock()
	defer e.mu.Unlock()
	en := e.byName[name]
	if e.closed || en == nil || en.gen != gen || slices.Equal(tail, en.s.StderrTail) {
		return false
	}
	en.s.StderrTail = tail
	e.publishLocked()
	return true
}

// stderrPoll bounds stderr-driven snapshots to 5 a second per server;
// stderrIdlePoll is the slowest poll of a quiet server.
const (
	stderrPoll     = 200 * time.Millisecond
	stderrIdlePoll = 3200 * time.Millisecond
)
