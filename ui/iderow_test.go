package ui

import (
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
)

// TestIDERowNamesTheEditor: an editor's server is a row like any other,
// labelled with the editor's name (sanitized); its overview says where it
// comes from.
func TestIDERowNamesTheEditor(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		ed := &model.Editor{Name: "Neo\x1b[31mvim", PID: 4242, Folder: "/p"}
		snap := engine.Snapshot{Servers: []engine.ServerSnapshot{{
			Name: "ide", Scope: model.ScopeDynamic, Source: "from Neovim (pid 4242)", Editor: ed,
			Transport: model.TransportWSIDE, Target: "ws://127.0.0.1:51234", State: model.StateConnected,
			Enabled: true, Runnable: true, Policy: model.PolicyDecision{Allowed: true},
			Tools: []engine.Tool{{Name: "getDiagnostics"}},
		}}}
		h := newHarness(t, newFakeEngine(snap), 100, 20)
		h.wantView("ide", "Neovim · ")
		if strings.Contains(h.view(), "\x1b[31m") {
			t.Fatalf("the editor's name reached the screen unsanitized:\n%q", h.view())
		}
		h.keys("enter")
		h.wantView("from Neovim (pid 4242) (dynamic)")
	})
}
