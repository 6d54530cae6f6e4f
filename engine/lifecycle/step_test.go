package lifecycle

import (
	"slices"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
)

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// The engine's limits (engine/settings.go), as the tests apply them.
const (
	crashWindow    = 10 * time.Second
	crashLoopLimit = 5
	transientLimit = 3
)

// Lists as the engine numbers them; the reducer only hands them back.
const (
	listTools   = 0
	listPrompts = 3
)

func testLimits() Limits {
	return Limits{Backoff: DefaultBackoff(), CrashWindow: crashWindow, CrashLoop: crashLoopLimit, TransientLimit: transientLimit}
}

func runnableDef() Definition {
	return Definition{Runnable: true, Allowed: true, Enabled: true, Approval: model.ApprovalNotNeeded}
}

// driver feeds events to step as the engine would and keeps every Effect.
type driver struct {
	t    *testing.T
	st   State
	now  time.Time
	effs []Effect // of the last Event
}

func newDriver(t *testing.T) *driver {
	return &driver{t: t, st: New(testLimits()), now: t0}
}

func (d *driver) at() At { return At{Now: d.now} }

// feed runs one Event, checking that step leaves its input alone.
func (d *driver) feed(ev Event) *driver {
	d.t.Helper()
	before := d.st
	hist := slices.Clone(d.st.history)
	d.st, d.effs = Step(d.st, ev)
	if !slices.Equal(hist, before.history) {
		d.t.Fatalf("step changed its input's history")
	}
	return d
}

func (d *driver) wait(dt time.Duration) *driver { d.now = d.now.Add(dt); return d }

// kinds lists the kinds of the last Event's effects.
func (d *driver) kinds() []EffectKind {
	var out []EffectKind
	for _, e := range d.effs {
		out = append(out, e.Kind)
	}
	return out
}

func (d *driver) effect(k EffectKind) (Effect, bool) {
	for _, e := range d.effs {
		if e.Kind == k {
			return e, true
		}
	}
	return Effect{}, false
}

func (d *driver) want(state model.State, kind model.ReasonKind) {
	d.t.Helper()
	if d.st.state != state || d.st.reason.Kind != kind {
		d.t.Fatalf("state %s reason %q, want %s %q (history %+v)", d.st.state, d.st.reason.Kind, state, kind, d.st.history)
	}
}

// connected starts a runnable server and lets its attempt succeed.
func (d *driver) connected() *driver {
	d.feed(Configured{At: d.at(), Def: runnableDef(), Change: ActStart})
	return d.feed(AttemptSucceeded{At: d.at(), Gen: d.st.gen})
}

func fail(class ErrClass, text string) Failure {
	return Failure{Class: class, ClassName: class.String(), Text: text, Detail: text}
}

func TestStepBackoffScheduleThenGiveUp(t *testing.T) {
	d := newDriver(t).connected()
	d.want(model.StateConnected, model.ReasonNone)
	d.wait(time.Minute).feed(Lost{At: d.at(), Gen: d.st.gen, Fail: fail(ClassTerminal, "connection refused")})
	var delays []time.Duration
	for n := 1; n <= 5; n++ {
		d.want(model.StatePending, model.ReasonRetryScheduled)
		sch, ok := d.effect(EffSchedule)
		if !ok || d.st.reason.Attempt != n || d.st.reason.MaxAttempts != 5 || !d.st.reason.At.Equal(d.now.Add(sch.Delay)) {
			t.Fatalf("attempt %d: reason %+v effects %v", n, d.st.reason, d.kinds())
		}
		if d.st.reason.Error != "connection refused" || d.st.shown != n || d.st.shownMax != 5 {
			t.Fatalf("attempt %d: reason %+v shown %d/%d", n, d.st.reason, d.st.shown, d.st.shownMax)
		}
		delays = append(delays, sch.Delay)
		d.wait(sch.Delay).feed(RetryDue{At: d.at(), Gen: sch.Gen})
		d.want(model.StatePending, model.ReasonConnecting)
		if d.st.reason.Attempt != n || !slices.Contains(d.kinds(), EffStart) {
			t.Fatalf("retry %d: reason %+v effects %v", n, d.st.reason, d.kinds())
		}
		d.feed(AttemptFailed{At: d.at(), Gen: d.st.gen, Fail: fail(ClassTerminal, "connection refused")})
	}
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 16 * time.Second}
	if !slices.Equal(delays, want) {
		t.Errorf("delays %v, want %v", delays, want)
	}
	d.want(model.StateFailed, model.ReasonGaveUp)
	if d.st.reason.MaxAttempts != 5 || d.st.reason.Error != "connection refused" ||
		d.st.err.text != "connection refused" || d.st.Active() { // the cause alone: ui/status says "Gave up"
		t.Errorf("gave up: reason %+v error %q", d.st.reason, d.st.err.text)
	}
}

func TestStepBackoffJitterComesFromTheEvent(t *testing.T) {
	d := newDriver(t).connected()
	d.wait(time.Minute).feed(Lost{At: d.at(), Gen: d.st.gen, Fail: fail(ClassTerminal, "x"), Jitter: 0.5})
	if sch, _ := d.effect(EffSchedule); sch.Delay != time.Second+125*time.Millisecond {
		t.Errorf("delay %v, want 1.125s (25%% jitter at 0.5)", sch.Delay)
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
			crash := fail(ClassExited, "server process exited")
			crash.ExitCode = &code
			for i := 1; i <= crashLoopLimit; i++ {
				d.wait(tc.uptime).feed(Lost{At: d.at(), Gen: d.st.gen, Fail: crash})
				if i < crashLoopLimit || !tc.loop {
					d.want(model.StatePending, model.ReasonRetryScheduled)
					sch, _ := d.effect(EffSchedule)
					d.wait(sch.Delay).feed(RetryDue{At: d.at(), Gen: sch.Gen})
					d.feed(AttemptSucceeded{At: d.at(), Gen: d.st.gen})
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
	exited := fail(ClassExited, "exited")
	exited.ExitCode = &code
	timeout := fail(ClassTimeout, "no answer")
	timeout.Limit = 30 * time.Second
	for _, tc := range []struct {
		fail  Failure
		kind  model.ReasonKind
		error string
	}{
		{fail(ClassOther, "boom"), model.ReasonFailed, "boom"},
		{exited, model.ReasonCrashed, "exited"},
		{timeout, model.ReasonTimedOut, "no answer"},
		{fail(ClassTooLarge, "too big"), model.ReasonTooLarge, "too big"},
		{fail(ClassAuth, "401"), model.ReasonAuthNeeded, "401"},
	} {
		d := newDriver(t)
		d.feed(Configured{At: d.at(), Def: runnableDef(), Change: ActStart})
		d.want(model.StatePending, model.ReasonConnecting)
		d.feed(AttemptFailed{At: d.at(), Gen: d.st.gen, Fail: tc.fail})
		want := model.StateFailed
		if tc.kind == model.ReasonAuthNeeded {
			want = model.StateNeedsAuth
		}
		d.want(want, tc.kind)
		if d.st.err.text != tc.error || d.st.reason.Error != tc.fail.Text || d.st.Active() {
			t.Errorf("%s: error %q reason %+v", tc.kind, d.st.err.text, d.st.reason)
		}
		if _, ok := d.effect(EffSchedule); ok {
			t.Errorf("%s: a first Failure scheduled a retry", tc.kind)
		}
	}
}

func TestStepTooLargeDuringReconnectIsNotRetried(t *testing.T) {
	d := newDriver(t).connected()
	d.wait(time.Minute).feed(Lost{At: d.at(), Gen: d.st.gen, Fail: fail(ClassTerminal, "reset")})
	sch, _ := d.effect(EffSchedule)
	d.feed(RetryDue{At: d.at(), Gen: sch.Gen})
	d.feed(AttemptFailed{At: d.at(), Gen: d.st.gen, Fail: fail(ClassTooLarge, "too big")})
	d.want(model.StateFailed, model.ReasonTooLarge)
}

func TestStepSessionExpiryReconnects(t *testing.T) {
	d := newDriver(t).connected()
	old := d.st.gen
	d.feed(SessionExpired{At: d.at(), Gen: old - 1})
	if len(d.effs) != 0 {
		t.Fatalf("a stale session expiry had effects %v", d.kinds())
	}
	d.feed(SessionExpired{At: d.at(), Gen: old})
	d.want(model.StatePending, model.ReasonConnecting)
	if got := d.kinds(); !slices.Equal(got, []EffectKind{EffStop, EffPublish, EffStart}) {
		t.Errorf("effects %v", got)
	}
	if last := d.st.history[len(d.st.history)-1]; last.Reason != "session expired" || d.st.gen <= old {
		t.Errorf("history %+v gen %d", last, d.st.gen)
	}
}

func TestStepAuthStepUpWhileConnected(t *testing.T) {
	d := newDriver(t).connected()
	// A 403 insufficient_scope or a 401 on a call: classified auth.
	d.feed(CallFailed{At: d.at(), Gen: d.st.gen, Fail: fail(ClassAuth, "403 insufficient_scope")})
	d.want(model.StateNeedsAuth, model.ReasonAuthNeeded)
	if got := d.kinds(); !slices.Equal(got, []EffectKind{EffStop, EffMarkNeedsAuth, EffPublish}) {
		t.Errorf("effects %v", got)
	}
	if d.st.reason.Error != "403 insufficient_scope" || d.st.err.class != "auth" || d.st.Active() {
		t.Errorf("reason %+v err %+v", d.st.reason, d.st.err)
	}
	d.feed(AuthDone{At: d.at()})
	d.want(model.StatePending, model.ReasonConnecting)
	if d.st.err.text != "" || !slices.Contains(d.kinds(), EffStart) {
		t.Errorf("after sign-in: err %+v effects %v", d.st.err, d.kinds())
	}
}

func TestStepAuthLostConnection(t *testing.T) {
	d := newDriver(t).connected()
	d.wait(time.Minute).feed(Lost{At: d.at(), Gen: d.st.gen, Fail: fail(ClassAuth, "401")})
	d.want(model.StateNeedsAuth, model.ReasonAuthNeeded)
	if !slices.Contains(d.kinds(), EffMarkNeedsAuth) {
		t.Errorf("effects %v", d.kinds())
	}
}

func TestStepTransientCallErrors(t *testing.T) {
	d := newDriver(t).connected()
	gen := d.st.gen
	transient := CallFailed{At: d.at(), Gen: gen, Fail: fail(ClassTransient, "reset"), Burst: fail(ClassTransient, "3 errors in a row: reset")}
	d.feed(transient).feed(transient)
	d.feed(CallSucceeded{At: d.at(), Gen: gen})
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
	d.feed(CallFailed{At: d.at(), Gen: d.st.gen, Fail: fail(ClassTransient, "reset")})
	old := d.st.gen
	d.feed(Configured{At: d.at(), Def: runnableDef(), Change: ActRestart})
	d.want(model.StatePending, model.ReasonConnecting)
	if got := d.kinds(); !slices.Equal(got, []EffectKind{EffStop, EffPublish, EffStart}) {
		t.Errorf("effects %v", got)
	}
	if last := d.st.history[len(d.st.history)-1]; last.Reason != "configuration changed" || last.Cause.Kind != model.ReasonConnecting {
		t.Errorf("last move %+v", last)
	}
	if d.st.transient != 0 || d.st.gen <= old {
		t.Errorf("transient %d gen %d", d.st.transient, d.st.gen)
	}
	// An unchanged Definition leaves the connection alone.
	d.feed(AttemptSucceeded{At: d.at(), Gen: d.st.gen})
	d.feed(Configured{At: d.at(), Def: runnableDef(), Change: ActUpdate})
	if len(d.effs) != 0 {
		t.Errorf("update had effects %v", d.kinds())
	}
	d.want(model.StateConnected, model.ReasonNone)
}

func TestStepCachedNeedsAuthAtReload(t *testing.T) {
	d := newDriver(t)
	d.feed(Configured{At: d.at(), Def: runnableDef(), Change: ActStart, CachedAuth: true})
	d.want(model.StateNeedsAuth, model.ReasonAuthNeeded)
	if !d.st.reason.Cached || d.st.err.text != "" || slices.Contains(d.kinds(), EffStart) {
		t.Errorf("reason %+v error %q effects %v", d.st.reason, d.st.err.text, d.kinds())
	}
}

func TestStepApprovalDisableAndPolicy(t *testing.T) {
	awaiting := runnableDef()
	awaiting.Runnable, awaiting.Approval = false, model.ApprovalPending
	changed := awaiting
	changed.Approval = model.ApprovalChanged
	rejected := awaiting
	rejected.Approval = model.ApprovalRejected
	off := runnableDef()
	off.Runnable, off.Enabled = false, false
	blocked := runnableDef()
	blocked.Runnable, blocked.Allowed, blocked.Rule = false, false, "deniedMcpServers[0]"
	broken := runnableDef()
	broken.Runnable = false
	broken.Problems = []model.Problem{{Server: "s", Field: "env.K", Message: "${K} is not set"}}
	broken.ProblemText = "env.K: ${K} is not set"

	d := newDriver(t)
	d.feed(Configured{At: d.at(), Def: awaiting, Change: ActAdd})
	d.want(model.StatePending, model.ReasonAwaitingApproval)
	d.feed(Configured{At: d.at(), Def: changed, Change: ActUpdate})
	if !d.st.reason.Changed || len(d.st.history) != 1 {
		t.Errorf("changed Definition: reason %+v history %d", d.st.reason, len(d.st.history))
	}
	d.feed(Configured{At: d.at(), Def: runnableDef(), Change: ActStart}) // approved
	d.want(model.StatePending, model.ReasonConnecting)
	d.feed(AttemptSucceeded{At: d.at(), Gen: d.st.gen})
	d.feed(Configured{At: d.at(), Def: off, Change: ActStop})
	d.want(model.StateDisabled, model.ReasonDisabledByYou)
	if d.kinds()[0] != EffStop || d.st.Active() {
		t.Errorf("disable: effects %v", d.kinds())
	}
	d.feed(Configured{At: d.at(), Def: blocked, Change: ActUpdate})
	d.want(model.StateDisabled, model.ReasonBlockedByPolicy)
	if d.st.reason.Rule != "deniedMcpServers[0]" {
		t.Errorf("policy rule %q", d.st.reason.Rule)
	}
	// Disabled leaves only through pending: a config problem shows as
	// pending, then failed.
	n := len(d.st.history)
	d.feed(Configured{At: d.at(), Def: broken, Change: ActUpdate})
	d.want(model.StateFailed, model.ReasonConfigProblem)
	h := d.st.history[n:]
	if len(h) != 2 || h[0].To != model.StatePending || h[1].To != model.StateFailed || d.st.err.class != "config" {
		t.Errorf("moves %+v err %+v", h, d.st.err)
	}
	if d.st.reason.Problem == nil || d.st.reason.Problem.Field != "env.K" {
		t.Errorf("problem %+v", d.st.reason.Problem)
	}
	d.feed(Configured{At: d.at(), Def: rejected, Change: ActUpdate})
	d.want(model.StateDisabled, model.ReasonRejectedByYou)
	d.feed(Configured{At: d.at(), Def: runnableDef(), Change: ActStart}) // enabled again
	d.want(model.StatePending, model.ReasonConnecting)
}

func TestStepStaleResultsDropped(t *testing.T) {
	d := newDriver(t)
	d.feed(Configured{At: d.at(), Def: runnableDef(), Change: ActStart})
	stale := d.st.gen
	d.feed(Reconnect{At: d.at()})
	fresh := d.st
	for _, ev := range []Event{
		AttemptSucceeded{At: d.at(), Gen: stale},
		AttemptFailed{At: d.at(), Gen: stale, Fail: fail(ClassOther, "x")},
		Lost{At: d.at(), Gen: stale, Fail: fail(ClassTerminal, "x")},
		RetryDue{At: d.at(), Gen: stale},
		CallFailed{At: d.at(), Gen: stale, Fail: fail(ClassTerminal, "x")},
		Listed{At: d.at(), Gen: stale, Problem: "x"},
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
	d.wait(time.Minute).feed(Lost{At: d.at(), Gen: d.st.gen, Fail: fail(ClassTerminal, "reset")})
	sch, _ := d.effect(EffSchedule)
	d.feed(Reconnect{At: d.at()}) // retry now keeps the attempt count
	d.want(model.StatePending, model.ReasonConnecting)
	if d.st.reason.Attempt != 1 || !slices.Equal(d.kinds(), []EffectKind{EffCancelRetry, EffPublish, EffStart}) {
		t.Errorf("retry now: reason %+v effects %v", d.st.reason, d.kinds())
	}
	d.feed(RetryDue{At: d.at(), Gen: sch.Gen}) // the stopped timer fired anyway
	if len(d.effs) != 0 {
		t.Errorf("a cancelled retry ran: %v", d.kinds())
	}
	d.feed(StopRetrying{At: d.at()})
	d.want(model.StateFailed, model.ReasonRetryCancelled)
	if d.st.err.text != "" || d.st.Active() {
		t.Errorf("error %q", d.st.err.text)
	}
	d.feed(StopRetrying{At: d.at()})
	if len(d.effs) != 0 {
		t.Errorf("stop retrying when not retrying: %v", d.kinds())
	}
}

func TestStepRefusesForbiddenMoves(t *testing.T) {
	r := reducer{st: New(testLimits()), now: t0}
	r.st.state = model.StateDisabled
	if r.move(model.StateConnected, "bad", model.Reason{}) || r.st.state != model.StateDisabled || r.effs[0].Kind != EffRefused {
		t.Errorf("disabled → connected: state %s effects %+v", r.st.state, r.effs)
	}
}

func TestStepListChangedRefetchesOnlyWhenConnected(t *testing.T) {
	d := newDriver(t)
	d.feed(Configured{At: d.at(), Def: runnableDef(), Change: ActStart})
	d.feed(ListChanged{At: d.at(), List: listTools})
	if len(d.effs) != 0 {
		t.Errorf("refetch while connecting: %v", d.kinds())
	}
	d.feed(AttemptSucceeded{At: d.at(), Gen: d.st.gen, Problem: "Listing prompts failed: x.", Detail: "d"})
	if d.st.err.text != "Listing prompts failed: x." || d.st.state != model.StateConnected {
		t.Errorf("list problem %q", d.st.err.text)
	}
	d.feed(ListChanged{At: d.at(), List: listPrompts})
	if e, ok := d.effect(EffRefetch); !ok || e.List != listPrompts {
		t.Errorf("effects %v", d.kinds())
	}
}
