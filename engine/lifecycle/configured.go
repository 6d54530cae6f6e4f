package lifecycle

import (
	"time"

	"github.com/mcpdeck/mcpdeck/model"
)

// configured applies a loaded definition as Reconcile decided.
func (r *reducer) configured(ev Configured) {
	r.st.def = ev.Def
	switch ev.Change {
	case ActStart, ActRestart:
		if ev.CachedAuth {
			r.stop(false)
			r.st.err.text = ""
			r.move(model.StateNeedsAuth, "needs auth (cached)", model.Reason{Kind: model.ReasonAuthNeeded, Cached: true})
			return
		}
		reason := "starting"
		if ev.Change == ActRestart {
			reason = "configuration changed"
		}
		r.start(reason)
	case ActAdd, ActStop:
		r.stop(false)
		r.idle()
	case ActUpdate:
		if !r.st.def.Runnable {
			r.idle()
		}
	case ActRemove:
		r.stop(false)
	}
}

// idle puts a server that may not run into the state that explains it:
// disabled (by policy, by you, rejected), pending approval, or failed with
// its first config problem.
func (r *reducer) idle() {
	d := r.st.def
	var to model.State
	var text string
	var cause model.Reason
	switch {
	case !d.Allowed:
		to, text, cause = model.StateDisabled, "blocked by policy", model.Reason{Kind: model.ReasonBlockedByPolicy, Rule: d.Rule}
		if d.Rule != "" {
			text += " rule " + d.Rule
		}
	case !d.Enabled:
		to, text, cause = model.StateDisabled, "disabled by you", model.Reason{Kind: model.ReasonDisabledByYou}
	case d.Approval == model.ApprovalRejected:
		to, text, cause = model.StateDisabled, "rejected by you", model.Reason{Kind: model.ReasonRejectedByYou}
	case d.Approval == model.ApprovalPending || d.Approval == model.ApprovalChanged:
		to, text = model.StatePending, "awaiting approval"
		cause = model.Reason{Kind: model.ReasonAwaitingApproval, Changed: d.Approval == model.ApprovalChanged}
	case len(d.Problems) > 0:
		to, text = model.StateFailed, d.ProblemText
		cause = model.Reason{Kind: model.ReasonConfigProblem, Problem: &d.Problems[0]}
		r.st.err.text, r.st.err.detail, r.st.err.class = text, text, "config"
	default:
		return
	}
	if r.st.state == to && len(r.st.history) > 0 {
		r.st.reason = cause
		return
	}
	if r.st.state == model.StateDisabled && to == model.StateFailed {
		// Disabled leaves only through pending (the model's table).
		r.move(model.StatePending, "configuration changed", cause)
	}
	r.move(to, text, cause)
}

// start begins a fresh connection, counters and error cleared: at startup,
// on enable, approve, reload, sign-in and a manual reconnect.
func (r *reducer) start(reason string) {
	r.stop(false)
	r.st.attempt, r.st.quickCrash = 0, 0
	r.st.shown, r.st.shownMax = 0, 0
	r.st.err = errorFields{}
	cause := model.Reason{Kind: model.ReasonConnecting}
	if r.st.state != model.StatePending || len(r.st.history) > 0 {
		r.move(model.StatePending, reason, cause)
	} else {
		r.st.reason = cause
		r.publish()
	}
	r.attemptNow()
}

// stop ends whatever runs for the server; results of it arriving later are
// dropped (new generation).
func (r *reducer) stop(keepStderr bool) {
	r.st.gen++
	r.st.phase = phaseIdle
	r.st.retryAt = time.Time{}
	r.st.transient = 0
	r.emit(Effect{Kind: EffStop, KeepStderr: keepStderr})
}

// attemptNow launches an attempt in a new generation.
func (r *reducer) attemptNow() {
	r.st.gen++
	r.st.phase = phaseAttempting
	r.emit(Effect{Kind: EffStart, Gen: r.st.gen})
}

// succeeded makes the attempt's connection the server's.
func (r *reducer) succeeded(ev AttemptSucceeded) {
	if ev.Gen != r.st.gen || r.st.phase != phaseAttempting {
		return // superseded: the engine closes the connection
	}
	r.st.phase = phaseConnected
	r.st.connected = r.now
	r.st.attempt, r.st.transient = 0, 0
	r.st.err.text, r.st.err.detail, r.st.err.class = ev.Problem, ev.Detail, ""
	r.emit(Effect{Kind: EffAccept})
	r.move(model.StateConnected, "connected", model.Reason{})
}
