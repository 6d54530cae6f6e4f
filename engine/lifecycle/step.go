// Package lifecycle is the reducer that decides what happens to one MCP
// server: Step takes the server's State and an Event (configured, attempt
// succeeded or failed, connection lost, retry due, call failed, the
// person's actions) and returns the next State and the Effects the engine
// must carry out. It is pure: it starts no goroutine, reads no clock (events
// carry the time and any randomness), does no I/O and imports only model and
// pure standard packages (imports_test.go fails otherwise). Reconcile, the
// other pure decision, says what a reload means for each server.
package lifecycle

import (
	"time"

	"github.com/mcpdeck/mcpdeck/model"
)

// HistoryCap bounds a server's state history.
const HistoryCap = 20

// State is one server's lifecycle as the reducer sees it: the public
// state and its reason, the attempt generation, every counter and the
// error. Its fields are unexported, so only Step (this package) changes
// them; the engine reads them through the methods below and Shown.
type State struct {
	state   model.State
	reason  model.Reason
	history []Transition
	limits  Limits
	def     Definition

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

// Transition is one entry of a server's state history.
type Transition struct {
	From model.State `json:"from"`
	To   model.State `json:"to"`
	At   time.Time   `json:"at"`
	// Reason is a short log label of what triggered the move ("session
	// expired", "configuration changed", the error): a record for logs and
	// --json, not a sentence for the UIs, which word Cause.
	Reason string `json:"reason,omitempty"`
	// Cause is the structured reason for the move (see Shown.Reason).
	Cause model.Reason `json:"cause,omitzero"`
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

// Limits are the fixed rules the reducer applies.
type Limits struct {
	Backoff        Backoff
	CrashWindow    time.Duration // a connection ending sooner counts as a crash
	CrashLoop      int           // crashes in a row that stop the server
	TransientLimit int           // transient call errors in a row that reconnect
}

// Definition is what the reducer needs to know of a server's definition.
type Definition struct {
	Runnable    bool
	Allowed     bool   // managed policy allows it
	Rule        string // the policy rule that decided
	Enabled     bool
	Approval    model.ApprovalStatus
	Problems    []model.Problem
	ProblemText string // the first problem, redacted
}

// New is a server the engine has just learned of: pending, with no history.
func New(l Limits) State { return State{limits: l} }

// Active reports whether the server is connected, connecting, or waiting
// for a retry.
func (st State) Active() bool { return st.phase != phaseIdle }

// Gen is the generation of the current attempt or connection: results of
// older ones are dropped.
func (st State) Gen() uint64 { return st.gen }

// Current is the public state.
func (st State) Current() model.State { return st.state }

// Runnable reports whether the server's definition may run.
func (st State) Runnable() bool { return st.def.Runnable }

// Shown is what a snapshot shows of a server's lifecycle.
type Shown struct {
	State  model.State
	Reason model.Reason
	// History is most recent last, at most HistoryCap.
	History              []Transition
	Attempt, MaxAttempts int       // the scheduled reconnect attempt, while pending
	NextRetry            time.Time // zero unless a retry is scheduled
	// Error, ErrorDetail, ErrorClass and ExitCode are the last failure.
	Error, ErrorDetail, ErrorClass string
	ExitCode                       *int
}

// Shown is the state as a snapshot shows it.
func (st State) Shown() Shown {
	return Shown{
		State: st.state, Reason: st.reason, History: st.history,
		Attempt: st.shown, MaxAttempts: st.shownMax, NextRetry: st.retryAt,
		Error: st.err.text, ErrorDetail: st.err.detail, ErrorClass: st.err.class, ExitCode: st.err.exitCode,
	}
}

// reducer accumulates one step's new state and effects.
type reducer struct {
	st   State
	now  time.Time
	effs []Effect
}

// Step is the one place that decides what happens to a server: given its
// state and an event it returns the next state and the effects the engine
// must carry out, in order. It starts no goroutine, reads no clock (events
// carry the time and any randomness) and does no I/O.
func Step(st State, ev Event) (State, []Effect) {
	r := &reducer{st: st, now: ev.when()}
	switch ev := ev.(type) {
	case Configured:
		r.configured(ev)
	case Removed:
		r.stop(false)
	case AttemptSucceeded:
		r.succeeded(ev)
	case AttemptFailed:
		r.failed(ev)
	case Lost:
		if ev.Gen == r.st.gen && r.st.phase == phaseConnected {
			r.lost(ev.Fail, ev.Jitter)
		}
	case Listed:
		r.listed(ev)
	case ListChanged:
		if r.st.phase == phaseConnected {
			r.emit(Effect{Kind: EffRefetch, List: ev.List})
		}
	case RetryDue:
		if ev.Gen == r.st.gen && r.st.phase == phaseWaiting {
			r.retryNow()
		}
	case CallSucceeded:
		if ev.Gen == r.st.gen {
			r.st.transient = 0
		}
	case CallFailed:
		r.callFailed(ev)
	default:
		r.asked(ev)
	}
	return r.st, r.effs
}

// asked handles what the person asked for: reconnect, stop retrying, sign
// in (and a session that expired under a call).
func (r *reducer) asked(ev Event) {
	switch ev := ev.(type) {
	case Reconnect:
		if r.st.phase == phaseWaiting { // retry now, keeping the attempt count
			r.retryNow()
			return
		}
		r.start("reconnect requested")
	case StopRetrying:
		if r.st.state == model.StatePending && r.st.Active() {
			r.stop(false)
			r.st.attempt = 0
			r.st.err.text = ""
			r.move(model.StateFailed, "reconnect cancelled", model.Reason{Kind: model.ReasonRetryCancelled})
		}
	case AuthDone:
		if r.st.def.Runnable {
			r.start("signed in")
		}
	case SessionExpired:
		if ev.Gen == r.st.gen && r.st.phase == phaseConnected {
			r.start("session expired")
		}
	}
}

// emit queues an effect.
func (r *reducer) emit(e Effect) { r.effs = append(r.effs, e) }

// publish asks for a snapshot (the engine sends at most one per step).
func (r *reducer) publish() { r.emit(Effect{Kind: EffPublish}) }

// move changes the public state through the model's table of allowed moves,
// records it in the history and publishes. A forbidden move is a bug: it is
// reported (EffRefused) and not made.
func (r *reducer) move(to model.State, text string, cause model.Reason) bool {
	from := r.st.state
	if err := model.CheckTransition(from, to); err != nil {
		r.emit(Effect{Kind: EffRefused, Text: err.Error() + " (" + text + ")"})
		return false
	}
	h := make([]Transition, 0, min(len(r.st.history)+1, HistoryCap))
	if len(r.st.history) >= HistoryCap {
		h = append(h, r.st.history[len(r.st.history)-HistoryCap+1:]...)
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
