package engine

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
)

// transition moves en to state to through the model's allowed-transition
// table, records it in the history and publishes a snapshot. Callers hold
// e.mu. A forbidden move is a bug: it is logged and not made.
func (e *Engine) transition(en *entry, to model.State, reason string) bool {
	from := en.s.State
	if err := model.CheckTransition(from, to); err != nil {
		e.log.Error("engine: refused state change", "server", en.srv.Name, "err", err, "reason", reason)
		return false
	}
	h := make([]Transition, 0, min(len(en.s.History)+1, historyCap))
	if len(en.s.History) >= historyCap {
		h = append(h, en.s.History[len(en.s.History)-historyCap+1:]...)
	} else {
		h = append(h, en.s.History...)
	}
	en.s.History = append(h, Transition{From: from, To: to, At: e.clock.Now(), Reason: reason})
	en.s.State = to
	if to != model.StatePending {
		en.s.Attempt, en.s.MaxAttempts = 0, 0
		en.s.NextRetry = time.Time{}
	}
	e.log.Debug("server state", "server", en.srv.Name, "from", from, "to", to, "reason", reason)
	e.refreshWhy(en)
	e.publishLocked()
	return true
}

// setError records a failure sentence and its detail on en.
func (e *Engine) setError(en *entry, err error) {
	if err == nil {
		en.s.Error, en.s.ErrorDetail, en.s.ErrorClass = "", "", ""
		return
	}
	_, name := e.errs.classify(err)
	en.s.Error = e.errText(en, err)
	if errors.Is(err, ErrConnectTimeout) { // say which limit, and how to raise it
		en.s.Error = fmt.Sprintf("the server did not finish connecting within %s (raise MCP_TIMEOUT, in ms, for slow servers)", e.set.connectTimeout)
	}
	en.s.ErrorDetail = en.redact(err.Error())
	en.s.ErrorClass = name
	if code, ok := e.errs.exitCode(err); ok {
		en.s.ExitCode = &code
	}
}

// refreshWhy recomputes the "why is this not running" sentences.
func (e *Engine) refreshWhy(en *entry) {
	if en.s.State == model.StateConnected {
		en.s.Why = nil
		return
	}
	why := slices.Clip(en.why)
	switch en.s.State {
	case model.StateNeedsAuth:
		why = append(why, "Needs authentication: run authenticate for this server.")
	case model.StateFailed, model.StatePending:
		if en.s.ExitCode != nil {
			why = append(why, fmt.Sprintf("Last crash: exited with code %d.", *en.s.ExitCode))
		}
		if en.s.State == model.StateFailed && en.s.Error != "" {
			why = append(why, sentence(en.s.Error))
		}
	case model.StateConnected, model.StateDisabled:
	}
	en.s.Why = why
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
	e.seq++
	s := Snapshot{Seq: e.seq, At: e.clock.Now(), Servers: make([]ServerSnapshot, len(e.order))}
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
