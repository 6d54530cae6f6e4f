package engine

import (
	"time"

	"github.com/mcpdeck/mcpdeck/model"
)

// serverState is one server's lifecycle as the reducer sees it: the public
// state and its reason, the attempt generation, every counter and the
// error. step (in the step*.go files) is the only code that changes it; a
// test (step_owner_test.go) fails when any other file writes these fields.
type serverState struct {
	state   model.State
	reason  model.Reason
	history []Transition
	limits  limits
	def     definition

	gen        uint64 // bumped per attempt and per stop: older results are dropped
	phase      phase
	attempt    int // reconnect attempt in progress (0 = first connect)
	transient  int // transient call errors in a row
	quickCrash int // connections that ended within crashWindow of connecting, in a row
	connected  time.Time
	retryAt    time.Time // when the scheduled retry runs
	shown      int       // the snapshot's Attempt: the scheduled reconnect attempt
	shownMax   int       // the snapshot's MaxAttempts
	err        errorFields
}

// phase is what the engine is doing for a server right now.
type phase int

const (
	phaseIdle       phase = iota // nothing runs
	phaseAttempting              // a connection attempt runs
	phaseConnected               // a connection is open
	phaseWaiting                 // a retry is scheduled
)

// errorFields are the snapshot's Error, ErrorDetail, ErrorClass, ExitCode.
type errorFields struct {
	text, detail, class string
	exitCode            *int
}

// limits are the fixed rules the reducer applies.
type limits struct {
	backoff        Backoff
	crashWindow    time.Duration
	crashLoop      int
	transientLimit int
}

// definition is what the reducer needs to know of a server's definition.
type definition struct {
	runnable    bool
	allowed     bool   // managed policy allows it
	rule        string // the policy rule that decided
	enabled     bool
	approval    model.ApprovalStatus
	problems    []model.Problem
	problemText string // the first problem, redacted
}

// newServerState is a server the engine has just learned of: pending, with
// no history.
func newServerState(l limits) serverState { return serverState{limits: l} }

// active reports whether the server is connected, connecting, or waiting
// for a retry.
func (st serverState) active() bool { return st.phase != phaseIdle }

// reducer accumulates one step's new state and effects.
type reducer struct {
	st   serverState
	now  time.Time
	effs []effect
}

// step is the one place that decides what happens to a server: given its
// state and an event it returns the next state and the effects the engine
// must carry out, in order. It starts no goroutine, reads no clock (events
// carry the time and any randomness) and does no I/O.
func step(st serverState, ev event) (serverState, []effect) {
	r := &reducer{st: st, now: ev.when()}
	switch ev := ev.(type) {
	case evConfigured:
		r.configured(ev)
	case evRemoved:
		r.stop(false)
	case evAttemptSucceeded:
		r.succeeded(ev)
	case evAttemptFailed:
		r.failed(ev)
	case evLost:
		if ev.gen == r.st.gen && r.st.phase == phaseConnected {
			r.lost(ev.fail, ev.jitter)
		}
	case evListed:
		r.listed(ev)
	case evListChanged:
		if r.st.phase == phaseConnected {
			r.emit(effect{kind: effRefetch, list: ev.list})
		}
	case evRetryDue:
		if ev.gen == r.st.gen && r.st.phase == phaseWaiting {
			r.retryNow()
		}
	case evCallSucceeded:
		if ev.gen == r.st.gen {
			r.st.transient = 0
		}
	case evCallFailed:
		r.callFailed(ev)
	default:
		r.person(ev)
	}
	return r.st, r.effs
}

// person handles what the person asked for.
func (r *reducer) person(ev event) {
	switch ev := ev.(type) {
	case evReconnect:
		if r.st.phase == phaseWaiting { // retry now, keeping the attempt count
			r.retryNow()
			return
		}
		r.start("reconnect requested")
	case evStopRetrying:
		if r.st.state == model.StatePending && r.st.active() {
			r.stop(false)
			r.st.attempt = 0
			r.st.err.text = ""
			r.move(model.StateFailed, "reconnect cancelled", model.Reason{Kind: model.ReasonRetryCancelled})
		}
	case evAuthDone:
		if r.st.def.runnable {
			r.start("signed in")
		}
	case evSessionExpired:
		if ev.gen == r.st.gen && r.st.phase == phaseConnected {
			r.start("session expired")
		}
	}
}

// emit queues an effect.
func (r *reducer) emit(e effect) { r.effs = append(r.effs, e) }

// publish asks for a snapshot (the engine sends at most one per step).
func (r *reducer) publish() { r.emit(effect{kind: effPublish}) }

// move changes the public state through the model's table of allowed moves,
// records it in the history and publishes. A forbidden move is a bug: it is
// reported (effRefused) and not made.
func (r *reducer) move(to model.State, text string, cause model.Reason) bool {
	from := r.st.state
	if err := model.CheckTransition(from, to); err != nil {
		r.emit(effect{kind: effRefused, text: err.Error() + " (" + text + ")"})
		return false
	}
	h := make([]Transition, 0, min(len(r.st.history)+1, historyCap))
	if len(r.st.history) >= historyCap {
		h = append(h, r.st.history[len(r.st.history)-historyCap+1:]...)
	} else {
		h = append(h, r.st.history...)
	}
	r.st.history = append(h, Transition{From: from, To: to, At: r.now, Reason: text, Cause: cause})
	r.st.state = to
	r.st.reason = cause
	if to != model.StatePending {
		r.st.shown, r.st.shownMax = 0, 0
		r.st.retryAt = time.Time{}
	}
	r.publish()
	return true
}

// show copies the reducer's state into the server's snapshot, with the
// definition's standing reasons (blockers). The UIs word both (ui/status).
func (st serverState) show(s *ServerSnapshot, blockers []model.Reason) {
	s.State, s.Reason, s.History = st.state, st.reason, st.history
	s.Attempt, s.MaxAttempts, s.NextRetry = st.shown, st.shownMax, st.retryAt
	s.Error, s.ErrorDetail, s.ErrorClass, s.ExitCode = st.err.text, st.err.detail, st.err.class, st.err.exitCode
	s.Blockers = blockers
}
