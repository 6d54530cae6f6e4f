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
// It also copies new stderr lines into snapshots when the transport signals
// them, at most once per stderrPoll, so a chatty server cannot flood the UI
// with snapshots and a quiet one costs nothing.
func (e *Engine) monitor(ctx context.Context, name string, gen uint64, conn session) {
	changed := conn.StderrChanged()
	wait := time.NewTimer(stderrPoll)
	wait.Stop()
	defer wait.Stop()
loop:
	for {
		select {
		case <-conn.Done():
			break loop
		case <-ctx.Done():
			return
		case <-changed:
			e.refreshStderr(name, gen, conn)
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
// guard checked, reconnect scheduled. A message over the size limit fails
// the server instead: reconnecting would fetch the same message again.
func (e *Engine) lostLocked(en *entry, err error) {
	conn := en.conn
	if conn != nil {
		en.s.StderrTail = conn.StderrTail(stderrTailLines)
	}
	quick := e.clock.Now().Sub(en.connectedAt) < crashWindow
	e.stopLocked(en)
	e.setError(en, err)
	e.log.Info("connection lost", "server", en.srv.Name, "err", en.redact(err.Error()))
	cls, _ := e.errs.classify(err)
	if cls == classTooLarge {
		en.quickCrash = 0
		e.transition(en, model.StateFailed, en.s.Error)
		return
	}
	if quick {
		en.quickCrash++
	} else {
		en.quickCrash = 0
	}
	if en.quickCrash >= crashLoopLimit {
		en.quickCrash = 0
		msg := fmt.Sprintf("Crash loop: the server stopped within %s of connecting %d times in a row; not restarting (last: %s)",
			crashWindow, crashLoopLimit, e.errText(en, err))
		en.s.Error = msg
		e.transition(en, model.StateFailed, msg)
		return
	}
	if cls == classAuth {
		e.needsAuthLocked(en)
		return
	}
	en.attempt = 0
	e.retryLocked(en, err)
}

// refreshStderr publishes the stderr tail if it changed.
func (e *Engine) refreshStderr(name string, gen uint64, conn session) {
	tail := conn.StderrTail(stderrTailLines)
	e.mu.Lock()
	defer e.mu.Unlock()
	en := e.byName[name]
	if e.closed || en == nil || en.gen != gen || slices.Equal(tail, en.s.StderrTail) {
		return
	}
	en.s.StderrTail = tail
	e.publishLocked()
}

// stderrPoll bounds stderr-driven snapshots to 5 a second per server.
const stderrPoll = 200 * time.Millisecond
