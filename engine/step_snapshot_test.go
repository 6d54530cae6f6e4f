package engine

import (
	"errors"
	"slices"
	"testing"
	"testing/synctest"

	"github.com/mcpdeck/mcpdeck/model"
)

// TestSnapshotsCarryReasonAndBlockers checks what the engine puts in a
// snapshot for the UIs: the structured reason of each state, the standing
// blockers in whyNot's order (one per sentence), each move's cause, and
// whether the server may run (a command not found does not stop it).
func TestSnapshotsCarryReasonAndBlockers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := newFakeNet()
		n.servers["ok"] = demoServer
		n.fail["bad"] = exitErr(7)
		off := stdioServer("off")
		off.Enabled = false
		off.Policy = model.PolicyDecision{Allowed: false, Rule: "deniedMcpServers[0]"}
		off.Config.Command = "missing-cmd"
		proj := stdioServer("proj")
		proj.Scope = model.ScopeProject
		proj.Approval = model.Approval{Status: model.ApprovalChanged}
		broken := stdioServer("broken")
		broken.Problems = []model.Problem{{Server: "broken", Field: "env.A", Message: "${A} is not set"}, {Server: "broken", Field: "env.B", Message: "${B} is not set"}}
		lost := stdioServer("lost")
		lost.Config.Command = "missing-cmd"
		n.fail["lost"] = exitErr(127)
		e := newTestEngine(t, n, stdioServer("ok"), stdioServer("bad"), off, proj, broken, lost)
		e.findProgram = func(cfg model.ServerConfig) error {
			if cfg.Command == "missing-cmd" {
				return errors.New("not found")
			}
			return nil
		}
		mustStart(t, e)
		synctest.Wait()

		if s := current(t, e, "ok"); s.State != model.StateConnected || s.Reason.Kind != model.ReasonNone || len(s.Blockers) != 0 {
			t.Errorf("ok: %s %+v %+v", s.State, s.Reason, s.Blockers)
		}
		s := current(t, e, "bad")
		if s.State != model.StateFailed || s.Reason.Kind != model.ReasonCrashed || s.Reason.ExitCode == nil || *s.Reason.ExitCode != 7 || s.Reason.Error != s.Error {
			t.Errorf("bad: %s %+v error %q", s.State, s.Reason, s.Error)
		}
		if c := s.History[len(s.History)-1].Cause; c.Kind != model.ReasonCrashed {
			t.Errorf("bad: last move's cause %+v", c)
		}
		s = current(t, e, "off")
		kinds := func(bs []model.Reason) (out []model.ReasonKind) {
			for _, b := range bs {
				out = append(out, b.Kind)
			}
			return out
		}
		want := []model.ReasonKind{model.ReasonBlockedByPolicy, model.ReasonDisabledByYou, model.ReasonCommandNotFound}
		if s.State != model.StateDisabled || s.Reason.Kind != model.ReasonBlockedByPolicy || s.Reason.Rule != "deniedMcpServers[0]" ||
			!slices.Equal(kinds(s.Blockers), want) || s.Blockers[2].Command != "missing-cmd" {
			t.Errorf("off: %s %+v blockers %+v", s.State, s.Reason, s.Blockers)
		}
		s = current(t, e, "proj")
		if s.State != model.StatePending || s.Reason.Kind != model.ReasonAwaitingApproval || !s.Reason.Changed || len(s.Blockers) != 1 || !s.Blockers[0].Changed {
			t.Errorf("proj: %s %+v %+v", s.State, s.Reason, s.Blockers)
		}
		s = current(t, e, "broken")
		if s.State != model.StateFailed || s.Reason.Kind != model.ReasonConfigProblem || s.Reason.Problem.Field != "env.A" ||
			!slices.Equal(kinds(s.Blockers), []model.ReasonKind{model.ReasonConfigProblem, model.ReasonConfigProblem}) {
			t.Errorf("broken: %s %+v %+v", s.State, s.Reason, s.Blockers)
		}
		runnable := map[string]bool{"ok": true, "bad": true, "lost": true, "off": false, "proj": false, "broken": false}
		for name, want := range runnable {
			if s := current(t, e, name); s.Runnable != want {
				t.Errorf("%s: Runnable %v, want %v (blockers %+v)", name, s.Runnable, want, s.Blockers)
			}
		}
		if s := current(t, e, "lost"); len(s.Blockers) != 1 || s.Blockers[0].Kind != model.ReasonCommandNotFound {
			t.Errorf("lost: blockers %+v", s.Blockers)
		}
	})
}
