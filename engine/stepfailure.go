package engine

import (
	"fmt"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
)

// failed handles a failed attempt: a 401 means needs-auth, a failure during
// a reconnect sequence schedules the next try, a first failure is final
// until the person acts, and so is a message over the size limit at any
// attempt (the server would send it again).
func (r *reducer) failed(ev evAttemptFailed) {
	if ev.gen != r.st.gen || r.st.phase != phaseAttempting {
		return
	}
	r.st.phase = phaseIdle
	r.emit(effect{kind: effEndAttempt})
	f := ev.fail
	r.setError(f)
	switch {
	case f.class == classAuth:
		r.needsAuth(f)
	case r.st.attempt > 0 && f.class != classTooLarge:
		r.retry(f, ev.jitter)
	default:
		r.move(model.StateFailed, r.st.err.text, failedCause(f))
	}
}

// failedCause is the reason for a failed first attempt.
func failedCause(f failure) model.Reason {
	switch {
	case f.class == classTooLarge:
		return model.Reason{Kind: model.ReasonTooLarge, Error: f.text}
	case f.limit > 0:
		return model.Reason{Kind: model.ReasonTimedOut, Limit: f.limit, Error: f.text}
	case f.exitCode != nil || f.class == classExited:
		return model.Reason{Kind: model.ReasonCrashed, ExitCode: f.exitCode, Error: f.text}
	}
	return model.Reason{Kind: model.ReasonFailed, Error: f.text}
}

// setError records a failure's sentences and exit code.
func (r *reducer) setError(f failure) {
	r.st.err.text, r.st.err.detail, r.st.err.class = f.text, f.detail, f.className
	if f.exitCode != nil {
		r.st.err.exitCode = f.exitCode
	}
}

// needsAuth moves the server to needs-auth after a 401 and has the
// Authenticator remember it.
func (r *reducer) needsAuth(f failure) {
	r.emit(effect{kind: effMarkNeedsAuth})
	r.move(model.StateNeedsAuth, r.st.err.text, model.Reason{Kind: model.ReasonAuthNeeded, Error: f.text})
}

// retry schedules the next reconnect attempt under the backoff policy, or
// gives up after the last.
func (r *reducer) retry(f failure, jitter float64) {
	b := r.st.limits.backoff
	r.st.attempt++
	if r.st.attempt > b.MaxAttempts {
		r.st.attempt = 0
		r.st.err.text = f.text
		r.move(model.StateFailed, "gave up", model.Reason{Kind: model.ReasonGaveUp, MaxAttempts: b.MaxAttempts, Error: f.text})
		return
	}
	delay := b.Delay(r.st.attempt, func() float64 { return jitter })
	r.st.phase = phaseWaiting
	r.st.shown, r.st.shownMax = r.st.attempt, b.MaxAttempts
	r.st.retryAt = r.now.Add(delay)
	r.emit(effect{kind: effSchedule, gen: r.st.gen, delay: delay})
	cause := model.Reason{Kind: model.ReasonRetryScheduled, Attempt: r.st.attempt, MaxAttempts: b.MaxAttempts, At: r.st.retryAt, Error: f.text}
	r.move(model.StatePending, fmt.Sprintf("reconnect attempt %d/%d in %s", r.st.attempt, b.MaxAttempts, delay.Round(100*time.Millisecond)), cause)
}

// retryNow runs the scheduled retry.
func (r *reducer) retryNow() {
	r.emit(effect{kind: effCancelRetry})
	r.st.retryAt = time.Time{}
	r.st.reason = model.Reason{Kind: model.ReasonConnecting, Attempt: r.st.attempt, MaxAttempts: r.st.limits.backoff.MaxAttempts}
	r.publish()
	r.attemptNow()
}

// lost handles a connection that ended: the crash-loop guard is checked
// and a reconnect scheduled. A message over the size limit fails the server
// instead: reconnecting would fetch the same message again.
func (r *reducer) lost(f failure, jitter float64) {
	quick := r.now.Sub(r.st.connected) < r.st.limits.crashWindow
	r.stop(true)
	r.setError(f)
	if f.class == classTooLarge {
		r.st.quickCrash = 0
		r.move(model.StateFailed, r.st.err.text, model.Reason{Kind: model.ReasonTooLarge, Error: f.text})
		return
	}
	if quick {
		r.st.quickCrash++
	} else {
		r.st.quickCrash = 0
	}
	l := r.st.limits
	if r.st.quickCrash >= l.crashLoop {
		r.st.quickCrash = 0
		r.st.err.text = f.text
		r.move(model.StateFailed, "crash loop", model.Reason{Kind: model.ReasonCrashLoop, Count: l.crashLoop, Window: l.crashWindow, Error: f.text})
		return
	}
	if f.class == classAuth {
		r.needsAuth(f)
		return
	}
	r.st.attempt = 0
	r.retry(f, jitter)
}

// callFailed applies a request's error class to its connection: transient
// errors are counted and transientLimit in a row reconnect, terminal ones
// reconnect at once, a 401 means needs-auth.
func (r *reducer) callFailed(ev evCallFailed) {
	if ev.gen != r.st.gen || r.st.phase != phaseConnected {
		return
	}
	switch ev.fail.class {
	case classTransient, classTimeout:
		r.st.transient++
		if r.st.transient >= r.st.limits.transientLimit {
			r.lost(ev.burst, ev.jitter)
		}
	case classTerminal, classExited, classTooLarge:
		r.lost(ev.fail, ev.jitter)
	case classAuth:
		r.stop(false)
		r.setError(ev.fail)
		r.needsAuth(ev.fail)
	case classOther, classSessionExpired:
		r.st.transient = 0
	}
}

// listed records the problems of a refetched list.
func (r *reducer) listed(ev evListed) {
	if ev.gen != r.st.gen || r.st.phase != phaseConnected {
		return
	}
	if ev.problem != "" {
		r.st.err.text, r.st.err.detail = ev.problem, ev.detail
	}
	r.publish()
}
