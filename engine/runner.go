package engine

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"time"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// feed hands ev to step, keeps the state it returns and carries out its
// effects in order, then publishes at most once. keep (may be nil) runs for
// effAccept: it stores the connection the event reported. Callers hold e.mu.
func (e *Engine) feed(en *entry, ev event, keep func()) {
	from := en.st.state
	next, effs := step(en.st, ev)
	en.st = next
	en.st.show(&en.s, en.blockers)
	if en.st.state != from {
		e.log.Debug("server state", "server", en.srv.Name, "from", from, "to", en.st.state)
	}
	publish := false
	for _, f := range effs {
		switch f.kind {
		case effAccept:
			if keep != nil {
				keep()
			}
		case effPublish:
			publish = true
		default:
			e.perform(en, f)
		}
	}
	if publish {
		e.publishLocked()
	}
}

// perform carries out one effect of step for en. Callers hold e.mu.
func (e *Engine) perform(en *entry, f effect) {
	switch f.kind {
	case effStart:
		e.attemptLocked(en, f.gen)
	case effStop:
		e.stopLocked(en, f.keepStderr)
	case effEndAttempt:
		if en.cancel != nil {
			en.cancel()
			en.cancel = nil
		}
	case effSchedule:
		name, gen := en.srv.Name, f.gen
		en.timer = time.AfterFunc(f.delay, func() { e.retryDue(name, gen) })
	case effCancelRetry:
		en.stopRetry()
	case effMarkNeedsAuth:
		// The Authenticator's record is a file write: not under e.mu.
		if a := e.opts.Auth; a != nil {
			srv := en.srv
			e.wg.Go(func() { a.MarkNeedsAuth(srv) })
		}
	case effRefetch:
		e.refetchLocked(en, f.list)
	case effRefused:
		e.log.Error("engine: refused state change", "server", en.srv.Name, "err", f.text)
	case effAccept, effPublish:
	}
}

// describe turns err into what step needs to know of it, its sentences
// redacted with en's secrets. Callers hold e.mu.
func (e *Engine) describe(en *entry, err error) failure {
	cls, name := e.errs.classify(err)
	text := e.errText(en, err)
	var limit time.Duration
	if errors.Is(err, ErrConnectTimeout) { // which limit ran out (ui/status says how to raise it)
		limit = e.set.connectTimeout
	}
	var exit *int
	if code, ok := e.errs.exitCode(err); ok {
		exit = &code
	}
	return failure{class: cls, className: name, text: text, detail: en.redact(err.Error()), exitCode: exit, limit: limit}
}

// limits are the rules step applies to every server of this engine.
func (e *Engine) limits() limits {
	return limits{backoff: e.backoff, crashWindow: crashWindow, crashLoop: crashLoopLimit, transientLimit: transientLimit}
}

// now is the time an event happens.
func now() at { return at{now: time.Now()} }

// stopLocked ends whatever en runs: a scheduled retry, an attempt in
// flight, an open connection (closed in the background, its stderr tail
// kept first when asked).
func (e *Engine) stopLocked(en *entry, keepStderr bool) {
	en.stopRetry()
	if en.cancel != nil {
		en.cancel()
		en.cancel = nil
	}
	if en.conn != nil {
		c := en.conn
		if keepStderr {
			en.s.StderrTail = en.mask.MaskLines(c.StderrTail(stderrTailLines))
		}
		en.conn = nil
		e.goClose(c, en.mask)
	}
	en.dropCaches()
	e.toolsDirty = true
}

// goClose closes a connection without holding up the caller; a failure
// is logged masked with mask, its server's.
func (e *Engine) goClose(c session, mask *textsafe.Masker) {
	e.wg.Go(func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(e.ctx), closeTimeout)
		defer cancel()
		if err := c.Close(ctx); err != nil {
			e.log.Debug("closing connection", "err", mask.Mask(err.Error()))
		}
	})
}

// retryDue runs a scheduled retry if it is still current (step decides).
func (e *Engine) retryDue(name string, gen uint64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	en := e.byName[name]
	if e.closed || en == nil {
		return
	}
	e.feed(en, evRetryDue{at: now(), gen: gen}, nil)
}

// publishLocked sends a new snapshot built from every entry. Unchanged
// slices are shared with the previous snapshot; callers hold e.mu.
func (e *Engine) publishLocked() {
	if e.closed && e.last.Seq > 0 && e.ctx.Err() != nil {
		return
	}
	if e.batching {
		return // Reload publishes once at the end
	}
	if e.toolsDirty { // lists changed since the last publish: collisions may have too
		e.markCollisionsLocked()
		e.toolsDirty = false
	}
	e.seq++
	s := Snapshot{Seq: e.seq, At: time.Now(), Servers: make([]ServerSnapshot, len(e.order))}
	for i, en := range e.order {
		s.Servers[i] = en.s
	}
	if e.res != nil {
		s.Problems = e.res.Problems
	}
	s.Warnings = e.warnings
	if e.res != nil && e.res.Untrusted != nil && !e.res.Untrusted.Told {
		s.Warnings = append(slices.Clip(s.Warnings), e.res.Untrusted.Notice())
	}
	if e.opts.Auth != nil {
		if w := e.opts.Auth.Warnings(); len(w) > 0 {
			s.Warnings = append(slices.Clip(s.Warnings), w...)
		}
	}
	e.last = s
	e.pub.publish(s)
	close(e.changed) // wake internal waiters (reconnectFor)
	e.changed = make(chan struct{})
}

// sortEntries orders entries by scope (high first), then name.
func sortEntries(es []*entry) {
	slices.SortFunc(es, func(a, b *entry) int {
		if c := cmp.Compare(b.srv.Scope, a.srv.Scope); c != 0 {
			return c
		}
		return cmp.Compare(a.srv.Name, b.srv.Name)
	})
}
