package engine

import (
	"encoding/json"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/sandbox"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// TestSnapshotWrittenOnlyAwaitingApproval checks that the definition as
// written, unmasked, reaches the UI for a project server the person has not
// approved (so the prompt can show NODE_OPTIONS and LD_PRELOAD) and for no
// other server, and never in JSON.
func TestSnapshotWrittenOnlyAwaitingApproval(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		raw := model.ServerConfig{
			Command: "node", Args: []string{"srv.js"},
			Env: map[string]string{"NODE_OPTIONS": "--require ./x.js", "LD_PRELOAD": "/tmp/evil.so"},
		}
		mk := func(name string, scope model.Scope, status model.ApprovalStatus) model.Server {
			s := stdioServer(name)
			s.Scope, s.Raw, s.Config, s.Approval.Status = scope, raw, raw, status
			return s
		}
		e := newTestEngine(t, newFakeNet(),
			mk("pending", model.ScopeProject, model.ApprovalPending),
			mk("changed", model.ScopeProject, model.ApprovalChanged),
			mk("rejected", model.ScopeProject, model.ApprovalRejected),
			mk("approved", model.ScopeProject, model.ApprovalApproved),
			mk("mine", model.ScopeUser, model.ApprovalNotNeeded),
		)
		mustStart(t, e)
		for _, name := range []string{"pending", "changed", "rejected"} {
			s := current(t, e, name)
			if s.Written == nil || s.Written.Env["NODE_OPTIONS"] != "--require ./x.js" || s.Written.Env["LD_PRELOAD"] != "/tmp/evil.so" {
				t.Errorf("%s: written = %+v, want the env as written", name, s.Written)
			}
			if s.Config.Env["NODE_OPTIONS"] != textsafe.Masked {
				t.Errorf("%s: Config env = %v, want masked", name, s.Config.Env)
			}
			all, err := json.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(all), "x.js") {
				t.Errorf("%s: JSON shows the unmasked definition: %s", name, all)
			}
		}
		for _, name := range []string{"approved", "mine"} {
			if s := current(t, e, name); s.Written != nil {
				t.Errorf("%s: written = %+v, want nil (its literal values stay masked)", name, s.Written)
			}
		}
	})
}

// TestSnapshotSandboxAwaitingApproval: a project server awaiting approval
// that asks for a sandbox carries what that sandbox would open here (for
// the approval prompt), with the paths it would not open and why; an
// approved one carries none.
func TestSnapshotSandboxAwaitingApproval(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		raw := model.ServerConfig{Command: "node", Args: []string{"srv.js"}, Sandbox: &model.Sandbox{
			Profile: model.SandboxProfileDefault, Read: []string{"/nonexistent/mcpdeck-test"},
		}}
		mk := func(name string, status model.ApprovalStatus) model.Server {
			s := stdioServer(name)
			s.Scope, s.Raw, s.Config, s.Approval.Status = model.ScopeProject, raw, raw, status
			return s
		}
		e := newTestEngine(t, newFakeNet(), mk("pending", model.ApprovalPending), mk("approved", model.ApprovalApproved))
		mustStart(t, e)
		s := current(t, e, "pending")
		if s.Sandbox == nil || len(s.Sandbox.Dropped) != 1 || s.Sandbox.Dropped[0].Reason != sandbox.ReasonMissing || s.Sandbox.Network != "none" {
			t.Errorf("pending: sandbox view %+v", s.Sandbox)
		}
		if s := current(t, e, "approved"); s.Sandbox != nil {
			t.Errorf("approved: sandbox view %+v", s.Sandbox)
		}
	})
}
