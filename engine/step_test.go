package engine

import (
	"slices"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
)

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func testLimits() limits {
	return limits{backoff: DefaultBackoff(), crashWindow: crashWindow, crashLoop: crashLoopLimit, transientLimit: transientLimit}
}

func runnableDef() definition {
	return definition{runnable: true, allowed: true, enabled: true, approval: model.ApprovalNotNeeded}
}

// driver feeds events to step as the engine would and keeps every effect.
type driver struct {
	t    *testing.T
	st   serverState
	now  time.Time
	effs []effect // of the last event
}

func newDriver(t *testing.T) *driver {
	return &driver{t: t, st: newServerState(testLimits()), now: t0}
}

func (d *driver) at() at { return at{now: d.now} }

// feed runs one event, checking that step leaves its input alone.
func (d *driver) feed(ev event) *driver {
	d.t.Helper()
	before := d.st
	hist := slices.Clone(d.st.history)
	d.st, d.effs = step(d.st, ev)
	if !slices.Equal(hist, before.history) {
		d.t.Fatalf("step changed its input's history")
	}
	return d
}

func (d *driver) wait(dt time.Duration) *driver { d.now = d.now.Add(dt); return d }

// kinds lists the kinds of the last event's effects.
func (d *driver) kinds() []effectKind {
	var out []effectKind
	for _, e := range d.effs {
		out = append(out, e.kind)
	}
	return out
}

func (d *driver) effect(k effectKind) (effect, bool) {
	for _, e := range d.effs {
		if e.kind == k {
			return e, true
		}
	}
	return effect{}, false
}

func (d *driver) want(state model.State, kind model.ReasonKind) {
	d.t.Helper()
	if d.st.state != state || d.st.reason.Kind != kind {
		d.t.Fatalf("state %s reason %q, want %s %q (history %+v)", d.st.state, d.st.reason.Kind, state, kind, d.st.history)
	}
}

// connected starts a runnable server and lets its attempt succeed.
func (d *driver) connected() *driver {
	d.feed(evConfigured{at: d.at(), def: runnableDef(), change: actStart})
	return d.feed(evAttemptSucceeded{at: d.at(), gen: d.st.gen})
}

func fail(class errClass, text string) failure {
	return failure{class: class, className: class.String(), text: text, detail: text}
}

func TestStepBackoffScheduleThenGiveUp(t *testing.T) {
	d := newDriver(t).connected()
	d.want(model.StateConnected, model.ReasonNone)
	d.wait(time.Minute).feed(evLost{at: d.at(), gen: d.st.gen, fail: fail(classTerminal, "connection refused")})
	var delays []time.Duration
	for n := 1; n <= 5; n++ {
		d.want(model.StatePending, model.ReasonRetryScheduled)
		sch, ok := d.effect(effSchedule)
		if !ok || d.st.reason.Attempt != n || d.st.reason.MaxAttempts != 5 || !d.st.reason.At.Equal(d.now.Add(sch.delay)) {
			t.Fatalf("attempt %d: reason %+v effects %v", n, d.st.reason, d.kinds())
		}
		if d.st.reason.Error != "connection refused" || d.st.shown != n || d.st.shownMax != 5 {
			t.Fatalf("attempt %d: reason %+v shown %d/%d", n, d.st.reason, d.st.shown, d.st.shownMax)
		}
		delays = append(delays, sch.delay)
		d.wait(sch.delay).feed(evRetryDue{at: d.at(), gen: sch.gen})
		d.want(model.StatePending, model.ReasonConnecting)
		if d.st.reason.Attempt != n || !slices.Contains(d.kinds(), effStart) {
			t.Fatalf("retry %d: reason %+v effects %v", n, d.st.reason, d.kinds())
		}
		d.feed(evAttemptFailed{at: d.at(), gen: d.st.gen, fail: fail(classTerminal, "connection refused")})
	}
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 16 * time.Second}
	if !slices.Equal(delays, want) {
		t.Errorf("delays %v, want %v", delays, want)
	}
	d.want(model.StateFailed, model.ReasonGaveUp)
	if d.st.reason.MaxAttempts != 5 || d.st.reason.Error != "connection refused" ||
		d.st.err.text != "connection refused" || d.st.active() { // the cause alone: ui/status says "Gave up"
		t.Errorf("gave up: reason %+v error %q", d.st.reason, d.st.err.text)
	}
}

func TestStepBackoffJitterComesFromTheEvent(t *testing.T) {
	d := newDriver(t).connected()
	d.wait(time.Minute).feed(evLost{at: d.at(), gen: d.st.gen, fail: fail(classTerminal, "x"), jitter: 0.5})
	if sch, _ := d.effect(effSchedule); sch.delay != time.Second+125*time.Millisecond {
		t.Errorf("delay %v, want 1.125s (25%% jitter at 0.5)", sch.delay)
	}
}

func TestStepCrashLoopGuard(t *testing.T) {
	for _, tc := range []struct {
		name   string
		uptime time.Duration
		loop   bool
	}{
		{"quick crashes", time.Second, true},
		{"slow crashes", crashWindow + time.Second, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := newDriver(t).connected()
			code := 3
			crash := fail(classExited, "server process exited")
			crash.exitCode = &code
			for i := 1; i <= crashLoopLimit; i++ {
				d.wait(tc.uptime).feed(evLost{at: d.at(), gen: d.st.gen, fail: crash})
				if i < crashLoopLimit || !tc.loop {
					d.want(model.StatePending, model.ReasonRetryScheduled)
					sch, _ := d.effect(effSchedule)
					d.wait(sch.delay).feed(evRetryDue{at: d.at(), gen: sch.gen})
					d.feed(evAttemptSucceeded{at: d.at(), gen: d.st.gen})
				}
			}
			if !tc.loop {
				d.want(model.StateConnected, model.ReasonNone)
				return
			}
			d.want(model.StateFailed, model.ReasonCrashLoop)
			r := d.st.reason
			if r.Count != crashLoopLimit || r.Window != crashWindow || r.Error != "server process exited" ||
				d.st.err.text != "server process exited" {
				t.Errorf("reason %+v error %q", r, d.st.err.text)
			}
			if *d.st.err.exitCode != 3 {
				t.Errorf("exit code %v reason %+v", *d.st.err.exitCode, d.st.reason)
			}
		})
	}
}

func TestStepFirstFailureIsFinal(t *testing.T) {
	code := 2
	exited := fail(classExited, "exited")
	exited.exitCode = &code
	timeout := fail(classTimeout, "no answer")
	timeout.limit = 30 * time.Second
	for _, tc := range []struct {
		fail  failure
		kind  model.ReasonKind
		error string
	}{
		{fail(classOther, "boom"), model.ReasonFailed, "boom"},
		{exited, model.ReasonCrashed, "exited"},
		{timeout, model.ReasonTimedOut, "no answer"},
		{fail(classTooLarge, "too big"), model.ReasonTooLarge, "too big"},
		{fail(classAuth, "401"), model.ReasonAuthNeeded, "401"},
	} {
		d := newDriver(t)
		d.feed(evConfigured{at: d.at(), def: runnableDef(), change: actStart})
		d.want(model.StatePending, model.ReasonConnecting)
		d.feed(evAttemptFailed{at: d.at(), gen: d.st.gen, fail: tc.fail})
		want := model.StateFailed
		if tc.kind == model.ReasonAuthNeeded {
			want = model.StateNeedsAuth
		}
		d.want(want, tc.kind)
		if d.st.err.text != tc.error || d.st.reason.Error != tc.fail.text || d.st.active() {
			t.Errorf("%s: error %q reason %+v", tc.kind, d.st.err.text, d.st.reason)
		}
		if _, ok := d.effect(effSchedule); ok {
			t.Errorf("%s: a first failure scheduled a retry", tc.kind)
		}
	}
}

func TestStepTooLargeDuringReconnectIsNotRetried(t *testing.T) {
	d := newDriver(t).connected()
	d.wait(time.Minute).feed(evLost{at: d.at(), gen: d.st.gen, fail: fail(classTerminal, "reset")})
	sch, _ := d.effect(effSchedule)
	d.feed(evRetryDue{at: d.at(), gen: sch.gen})
	d.feed(evAttemptFailed{at: d.at(), gen: d.st.gen, fail: fail(classTooLarge, "too big")})
	d.want(model.StateFailed, model.ReasonTooLarge)
}

func TestStepSessionExpiryReconnects(t *testing.T) {
	d := newDriver(t).connected()
	old := d.st.gen
	d.feed(evSessionExpired{at: d.at(), gen: old - 1})
	if len(d.effs) != 0 {
		t.Fatalf("a stale session expiry had effects %v", d.kinds())
	}
	d.feed(evSessionExpired{at: d.at(), gen: old})
	d.want(model.StatePending, model.ReasonConnecting)
	if got := d.kinds(); !slices.Equal(got, []effectKind{effStop, effPublish, effStart}) {
		t.Errorf("effects %v", got)
	}
	if last := d.st.history[len(d.st.history)-1]; last.Reason != "session expired" || d.st.gen <= old {
		t.Errorf("history %+v gen %d", last, d.st.gen)
	}
}

func TestStepAuthStepUpWhileConnected(t *testing.T) {
	d := newDriver(t).connected()
	// A 403 insufficient_scope or a 401 on a call: classified auth.
	d.feed(evCallFailed{at: d.at(), gen: d.st.gen, fail: fail(classAuth, "403 insufficient_scope")})
	d.want(model.StateNeedsAuth, model.ReasonAuthNeeded)
	if got := d.kinds(); !slices.Equal(got, []effectKind{effStop, effMarkNeedsAuth, effPublish}) {
		t.Errorf("effects %v", got)
	}
	if d.st.reason.Error != "403 insufficient_scope" || d.st.err.class != "auth" || d.st.active() {
		t.Errorf("reason %+v err %+v", d.st.reason, d.st.err)
	}
	d.feed(evAuthDone{at: d.at()})
	d.want(model.StatePending, model.ReasonConnecting)
	if d.st.err.text != "" || !slices.Contains(d.kinds(), effStart) {
		t.Errorf("after sign-in: err %+v effects %v", d.st.err, d.kinds())
	}
}

func TestStepAuthLostConnection(t *testing.T) {
	d := newDriver(t).connected()
	d.wait(time.Minute).feed(evLost{at: d.at(), gen: d.st.gen, fail: fail(classAuth, "401")})
	d.want(model.StateNeedsAuth, model.ReasonAuthNeeded)
	if !slices.Contains(d.kinds(), effMarkNeedsAuth) {
		t.Errorf("effects %v", d.kinds())
	}
}

func TestStepTransientCallErrors(t *testing.T) {
	d := newDriver(t).connected()
	gen := d.st.gen
	transient := evCallFailed{at: d.at(), gen: gen, fail: fail(classTransient, "reset"), burst: fail(classTransient, "3 errors in a row: reset")}
	d.feed(transient).feed(transient)
	d.feed(evCallSucceeded{at: d.at(), gen: gen})
	d.feed(transient).feed(transient)
	d.want(model.StateConnected, model.ReasonNone)
	if d.st.transient != 2 {
		t.Fatalf("transient %d, want 2 (a success resets the count)", d.st.transient)
	}
	d.wait(time.Minute).feed(transient)
	d.want(model.StatePending, model.ReasonRetryScheduled)
	if d.st.reason.Error != "3 errors in a row: reset" || d.st.transient != 0 {
		t.Errorf("reason %+v transient %d", d.st.reason, d.st.transient)
	}
}

func TestStepReloadOfChangedDefinition(t *testing.T) {
	d := newDriver(t).connected()
	d.feed(evCallFailed{at: d.at(), gen: d.st.gen, fail: fail(classTransient, "reset")})
	old := d.st.gen
	d.feed(evConfigured{at: d.at(), def: runnableDef(), change: actRestart})
	d.want(model.StatePending, model.ReasonConnecting)
	if got := d.kinds(); !slices.Equal(got, []effectKind{effStop, effPublish, effStart}) {
		t.Errorf("effects %v", got)
	}
	if last := d.st.history[len(d.st.history)-1]; last.Reason != "configuration changed" || last.Cause.Kind != model.ReasonConnecting {
		t.Errorf("last move %+v", last)
	}
	if d.st.transient != 0 || d.st.gen <= old {
		t.Errorf("transient %d gen %d", d.st.transient, d.st.gen)
	}
	// An unchanged definition leaves the connection alone.
	d.feed(evAttemptSucceeded{at: d.at(), gen: d.st.gen})
	d.feed(evConfigured{at: d.at(), def: runnableDef(), change: actUpdate})
	if len(d.effs) != 0 {
		t.Errorf("update had effects %v", d.kinds())
	}
	d.want(model.StateConnected, model.ReasonNone)
}

func TestStepCachedNeedsAuthAtReload(t *testing.T) {
	d := newDriver(t)
	d.feed(evConfigured{at: d.at(), def: runnableDef(), change: actStart, cachedAuth: true})
	d.want(model.StateNeedsAuth, model.ReasonAuthNeeded)
	if !d.st.reason.Cached || d.st.err.text != "" || slices.Contains(d.kinds(), effStart) {
		t.Errorf("reason %+v error %q effects %v", d.st.reason, d.st.err.text, d.kinds())
	}
}

func TestStepApprovalDisableAndPolicy(t *testing.T) {
	awaiting := runnableDef()
	awaiting.runnable, awaiting.approval = false, model.ApprovalPending
	changed := awaiting
	changed.approval = model.ApprovalChanged
	rejected := awaiting
	rejected.approval = model.ApprovalRejected
	off := runnableDef()
	off.runnable, off.enabled = false, false
	blocked := runnableDef()
	blocked.runnable, blocked.allowed, blocked.rule = false, false, "deniedMcpServers[0]"
	broken := runnableDef()
	broken.runnable = false
	broken.problems = []model.Problem{{Server: "s", Field: "env.K", Message: "${K} is not set"}}
	broken.problemText = "env.K: ${K} is not set"

	d := newDriver(t)
	d.feed(evConfigured{at: d.at(), def: awaiting, change: actAdd})
	d.want(model.StatePending, model.ReasonAwaitingApproval)
	d.feed(evConfigured{at: d.at(), def: changed, change: actUpdate})
	if !d.st.reason.Changed || len(d.st.history) != 1 {
		t.Errorf("changed definition: reason %+v history %d", d.st.reason, len(d.st.history))
	}
	d.feed(evConfigured{at: d.at(), def: runnableDef(), change: actStart}) // approved
	d.want(model.StatePending, model.ReasonConnecting)
	d.feed(evAttemptSucceeded{at: d.at(), gen: d.st.gen})
	d.feed(evConfigured{at: d.at(), def: off, change: actStop})
	d.want(model.StateDisabled, model.ReasonDisabledByYou)
	if d.kinds()[0] != effStop || d.st.active() {
		t.Errorf("disable: effects %v", d.kinds())
	}
	d.feed(evConfigured{at: d.at(), def: blocked, change: actUpdate})
	d.want(model.StateDisabled, model.ReasonBlockedByPolicy)
	if d.st.reason.Rule != "deniedMcpServers[0]" {
		t.Errorf("policy rule %q", d.st.reason.Rule)
	}
	// Disabled leaves only through pending: a config problem shows as
	// pending, then failed.
	n := len(d.st.history)
	d.feed(evConfigured{at: d.at(), def: broken, change: actUpdate})
	d.want(model.StateFailed, model.ReasonConfigProblem)
	h := d.st.history[n:]
	if len(h) != 2 || h[0].To != model.StatePending || h[1].To != model.StateFailed || d.st.err.class != "config" {
		t.Errorf("moves %+v err %+v", h, d.st.err)
	}
	if d.st.reason.Problem == nil || d.st.reason.Problem.Field != "env.K" {
		t.Errorf("problem %+v", d.st.reason.Problem)
	}
	d.feed(evConfigured{at: d.at(), def: rejected, change: actUpdate})
	d.want(model.StateDisabled, model.ReasonRejectedByYou)
	d.feed(evConfigured{at: d.at(), def: runnableDef(), change: actStart}) // enabled again
	d.want(model.StatePending, model.ReasonConnecting)
}

func TestStepStaleResultsDropped(t *testing.T) {
	d := newDriver(t)
	d.feed(evConfigured{at: d.at(), def: runnableDef(), change: actStart})
	stale := d.st.gen
	d.feed(evReconnect{at: d.at()})
	fresh := d.st
	for _, ev := range []event{
		evAttemptSucceeded{at: d.at(), gen: stale},
		evAttemptFailed{at: d.at(), gen: stale, fail: fail(classOther, "x")},
		evLost{at: d.at(), gen: stale, fail: fail(classTerminal, "x")},
		evRetryDue{at: d.at(), gen: stale},
		evCallFailed{at: d.at(), gen: stale, fail: fail(classTerminal, "x")},
		evListed{at: d.at(), gen: stale, problem: "x"},
	} {
		d.st = fresh
		d.feed(ev)
		if len(d.effs) != 0 || d.st.state != fresh.state || d.st.gen != fresh.gen || d.st.err != fresh.err || len(d.st.history) != len(fresh.history) {
			t.Errorf("%T of an old generation changed something: effects %v state %+v", ev, d.kinds(), d.st)
		}
	}
}

func TestStepRetryNowAndStopRetrying(t *testing.T) {
	d := newDriver(t).connected()
	d.wait(time.Minute).feed(evLost{at: d.at(), gen: d.st.gen, fail: fail(classTerminal, "reset")})
	sch, _ := d.effect(effSchedule)
	d.feed(evReconnect{at: d.at()}) // retry now keeps the attempt count
	d.want(model.StatePending, model.ReasonConnecting)
	if d.st.reason.Attempt != 1 || !slices.Equal(d.kinds(), []effectKind{effCancelRetry, effPublish, effStart}) {
		t.Errorf("retry now: reason %+v effects %v", d.st.reason, d.kinds())
	}
	d.feed(evRetryDue{at: d.at(), gen: sch.gen}) // the stopped timer fired anyway
	if len(d.effs) != 0 {
		t.Errorf("a cancelled retry ran: %v", d.kinds())
	}
	d.feed(evStopRetrying{at: d.at()})
	d.want(model.StateFailed, model.ReasonRetryCancelled)
	if d.st.err.text != "" || d.st.active() {
		t.Errorf("error %q", d.st.err.text)
	}
	d.feed(evStopRetrying{at: d.at()})
	if len(d.effs) != 0 {
		t.Errorf("stop retrying when not retrying: %v", d.kinds())
	}
}

func TestStepRefusesForbiddenMoves(t *testing.T) {
	r := reducer{st: newServerState(testLimits()), now: t0}
	r.st.state = model.StateDisabled
	if r.move(model.StateConnected, "bad", model.Reason{}) || r.st.state != model.StateDisabled || r.effs[0].kind != effRefused {
		t.Errorf("disabled → connected: state %s effects %+v", r.st.state, r.effs)
	}
}

func TestStepListChangedRefetchesOnlyWhenConnected(t *testing.T) {
	d := newDriver(t)
	d.feed(evConfigured{at: d.at(), def: runnableDef(), change: actStart})
	d.feed(evListChanged{at: d.at(), list: listTools})
	if len(d.effs) != 0 {
		t.Errorf("refetch while connecting: %v", d.kinds())
	}
	d.feed(evAttemptSucceeded{at: d.at(), gen: d.st.gen, problem: "Listing prompts failed: x.", detail: "d"})
	if d.st.err.text != "Listing prompts failed: x." || d.st.state != model.StateConnected {
		t.Errorf("list problem %q", d.st.err.text)
	}
	d.feed(evListChanged{at: d.at(), list: listPrompts})
	if e, ok := d.effect(effRefetch); !ok || e.list != listPrompts {
		t.Errorf("effects %v", d.kinds())
	}
}
