package ui

import (
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
)

// TestTokenCountsWaitForConnects: while a server is connecting, no count
// starts (the counts would compete with its start); once none is, the
// rows get their counts. A server waiting for a retry does not hold the
// counts back.
func TestTokenCountsWaitForConnects(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		s := fixture()
		connecting := engine.ServerSnapshot{
			Name: "starting", Scope: model.ScopeUser, Transport: model.TransportStdio, Target: "slow-server",
			State: model.StatePending, Enabled: true, Runnable: true, Policy: model.PolicyDecision{Allowed: true},
		}
		s.Servers = append(s.Servers, connecting)
		f := newFakeEngine(s)
		h := newHarness(t, f, 140, 30)
		h.keys("esc")
		if v := h.view(); strings.Contains(v, "tokens") {
			t.Fatalf("a count ran while a server was connecting:\n%s", v)
		}
		s.Servers[len(s.Servers)-1].State = model.StateFailed
		f.publish(s)
		h.settle()
		h.wantView("3 tools · 1 resource · 1 template · 1 prompt · ~166 tokens")
	})
}
