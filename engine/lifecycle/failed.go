package lifecycle

import (
	"fmt"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
)

// failed handles a failed attempt: a 401 means needs-auth, a failure during
// a reconnect sequence schedules the next try, a first failure is final
// until the person acts, and so is a message over the size limit at any
// attempt (the server would send it again).
func (r *reducer) failed(ev AttemptFailed) {
	if ev.Gen != r.st.gen || r.st.phase != phaseAttempting {
		return
	}
	r.st.phase = phaseIdle
	r.emit(Effect{Kind: EffEndAttempt})
	f := ev.Fail
	r.setError(f)
	switch {
	case f.Class == ClassAuth:
		r.needsAuth(f)
	case r.st.attempt > 0 && f.Class != ClassTooLarge:
		r.retry(f, ev.Jitter)
	default:
		r.move(model.StateFailed, r.st.err.text, failedCause(f))
	}
}

// failedCause is the reason for a failed first attempt.
func failedCause(f Failure) model.Reason {
	switch {
	case f.Class == ClassTooLarge:
		return model.Reason{Kind: model.ReasonTooLarge, Error: f.Text}
	case f.Limit > 0:
		return model.Reason{Kind: model.ReasonTimedOut, Limit: f.Limit, Error: f.Text}
	case f.ExitCode != nil || f.Class == ClassExited:
		return model.Reason{Kind: model.ReasonCrashed, ExitCode: f.ExitCode, Error: f.Text}
	}
	return model.Reason{Kind: model.ReasonFailed, Error: f.Text}
}

// setError records a failure's sentences and exit code.
func (r *reducer) setError(f Failure) {
	r.st.err.text, r.st.err.detail, r.st.err.class = f.Text, f.Detail, f.ClassName
	if f.ExitCode != nil {
		r.st.err.exitCode = f.ExitCode
	}
}

// needsAuth moves the server to needs-auth after a 401 and has the
// Authenticator remember it.
func (r *reducer) needsAuth(f Failure) {
	r.emit(Effect{Kind: EffMarkNeedsAuth})
	r.move(model.StateNeedsAuth, r.st.err.text, model.Reason{Kind: model.ReasonAuthNeeded, Error: f.Text})
}

// retry schedules the next reconnect attempt under the backoff policy, or
// gives up after the last.
func (r *reducer) retry(f Failure, jitter float64) {
	b := r.st.limits.Backoff
	r.st.attempt++
	if r.st.attempt > b.MaxAttempts {
		r.st.attempt = 0
		r.st.err.text = f.Text
		r.move(model.StateFailed, "gave up", model.Reason{Kind: model.ReasonGaveUp, MaxAttempts: b.MaxAttempts, Error: f.Text})
		return
	}
	delay := b.Delay(r.st.attempt, func() float64 { return jitter })
	r.st.phase = phaseWaiting
	r.st.shown, r.st.shownMax = r.st.attempt, b.MaxAttempts
	r.st.retryAt = r.now.Add(delay)
	r.emit(Effect{Kind: EffSchedule, Gen: r.st.gen, Delay: delay})
	cause := model.Reason{Kind: model.ReasonRetryScheduled, Attempt: r.st.attempt, MaxAttempts: b.MaxAttempts, At: r.st.retryAt, Error: f.Text}
	r.move(model.StatePending, fmt.Sprintf("reconnect attempt %d/%d in %s", r.st.attempt, b.MaxAttempts, delay.Round(100*time.Millisecond)), cause)
}

// retryNow runs the scheduled retry.
func (r *reducer) retryNow() {
	r.emit(Effect{Kind: EffCancelRetry})
	r.st.retryAt = time.Time{}
	r.st.reason = model.Reason{Kind: model.ReasonConnecting, Attempt: r.st.attempt, MaxAttempts: r.st.limits.Backoff.MaxAttempts}
	r.publish()
	r.attemptNow()
}

// lost handles a connection that ended: the crash-loop guard is checked
// and a reconnect scheduled. A message over the size limit fails the server
// instead: reconnecting would fetch the same message again.
func (r *reducer) lost(f Failure, jitter float64) {
	quick := r.now.Sub(r.st.connected) < r.st.limits.CrashWindow
	r.stop(true)
	r.setError(f)
	if f.Class == ClassTooLarge {
		r.st.quickCrash = 0
		r.move(model.StateFailed, r.st.err.text, model.Reason{Kind: model.ReasonTooLarge, Error: f.Text})
		return
	}
	if quick {
		r.st.quickCrash++
	} else {
		r.st.quickCrash = 0
	}
	l := r.st.limits
	if r.st.quickCrash >= l.CrashLoop {
		r.st.quickCrash = 0
		r.st.err.text = f.Text
		r.move(model.StateFailed, "crash loop", model.Reason{Kind: model.ReasonCrashLoop, Count: l.CrashLoop, Window: l.CrashWindow, Error: f.Text})
		return
	}
	if f.Class == ClassAuth {
		r.needsAuth(f)
		return
	}
	r.st.attempt = 0
	r.retry(f, jitter)
}

// callFailed applies a request's error class to its connection: transient
// errors are counted and transientLimit in a row reconnect, terminal ones
// reconnect at once, a 401 means needs-auth.
func (r *reducer) callFailed(ev CallFailed) {
	if ev.Gen != r.st.gen || r.st.phase != phaseConnected {
		return
	}
	switch ev.Fail.Class {
	case ClassTransient, ClassTimeout:
		r.st.transient++
		if r.st.transient >= r.st.limits.TransientLimit {
			r.lost(ev.Burst, ev.Jitter)
		}
	case ClassTerminal, ClassExited, ClassTooLarge:
		r.lost(ev.Fail, ev.Jitter)
	case ClassAuth:
		r.stop(false)
		r.setError(ev.Fail)
		r.needsAuth(ev.Fail)
	case ClassOther, ClassSessionExpired:
		r.st.transient = 0
	}
}

// listed records the problems of a refetched list.
func (r *reducer) listed(ev Listed) {
	if ev.Gen != r.st.gen || r.st.phase != phaseConnected {
		return
	}
	if ev.Problem != "" {
		r.st.err.text, r.st.err.detail = ev.Problem, ev.Detail
	}
	r.publish()
}
