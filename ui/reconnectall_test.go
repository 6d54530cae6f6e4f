package ui

import (
	"slices"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
)

// TestReconnectAllRetriesTheServersThatAreDown: ctrl+l reconnects every
// server that may run and is not connected (flaky waiting to retry,
// remote-api needing sign-in), leaves the connected one and those that
// may not run (disabled, blocked, broken config) alone, and the status
// line counts the ones that came back and says why the others did not.
func TestReconnectAllRetriesTheServersThatAreDown(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		f := newFakeEngine(fixture())
		f.outcomes = map[string]engine.ServerSnapshot{
			"remote-api": {Name: "remote-api", State: model.StateNeedsAuth, Reason: model.Reason{Kind: model.ReasonAuthNeeded}},
		}
		h := newHarness(t, f, 160, 30)
		h.keys("esc")
		h.send(tea.KeyMsg{Type: tea.KeyCtrlL})
		got := h.eng.Actions()
		slices.Sort(got)
		if want := []string{"reconnect flaky", "reconnect remote-api"}; !slices.Equal(got, want) {
			t.Fatalf("engine got %v, want %v", got, want)
		}
		h.wantView("reconnect all: 1 connected; reconnect remote-api failed")
		if !h.m.statusErr {
			t.Error("a reconnect all that left a server down is not shown as a failure")
		}
	})
}

// TestReconnectAllWithNothingDown: with every runnable server connected,
// ctrl+l touches nothing and says so.
func TestReconnectAllWithNothingDown(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		snap := fixture()
		for i := range snap.Servers {
			if snap.Servers[i].Runnable {
				snap.Servers[i].State = model.StateConnected
			}
		}
		h := newHarness(t, newFakeEngine(snap), 160, 30)
		h.keys("esc")
		h.send(tea.KeyMsg{Type: tea.KeyCtrlL})
		if got := h.eng.Actions(); len(got) != 0 {
			t.Fatalf("engine got %v, want nothing", got)
		}
		h.wantView("reconnect all: every server that may run is connected")
	})
}
