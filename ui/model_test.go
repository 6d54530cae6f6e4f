package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
)

func TestListShowsEveryState(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		h := newHarness(t, newFakeEngine(fixture()), 120, 30)
		h.keys("esc") // decide the approvals later
		h.wantView("notes", "3 tools · 1 resource · 1 template · 1 prompt", "attempt 2/5 · retry in 7s",
			"server broken, field env.TOKEN: ${TOKEN} is not set", "needs authentication", "Disabled by you",
			"blocked by policy", "awaiting approval", "changed since approval")
		golden(t, "list_all_states", h.view())
	})
}

func TestViewFitsSmallTerminal(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		h := newHarness(t, newFakeEngine(fixture()), 60, 15)
		check := func(what string) {
			t.Helper()
			lines := strings.Split(h.view(), "\n")
			if len(lines) != 15 {
				t.Fatalf("%s: %d lines, want 15", what, len(lines))
			}
			for _, l := range lines {
				if w := screenWidth(l); w > 60 {
					t.Fatalf("%s: line of width %d: %q", what, w, l)
				}
			}
		}
		check("approval")
		golden(t, "small_approval_60x15", h.view())
		h.keys("esc")
		check("list")
		golden(t, "small_list_60x15", h.view())
		h.selectServer("notes")
		h.keys("enter")
		check("detail")
		h.keys("?")
		check("help")
		h.wantView("Move:", "prompts:", "browser") // every key, the last one (o open in browser) too; headings keep their words together (no-break spaces)
		golden(t, "small_help_60x15", h.view())
	})
}

// freshRejected is the fixture with the project server fresh rejected.
func freshRejected() engine.Snapshot {
	s := fixture()
	s.Servers[3].State, s.Servers[3].Approval.Status = model.StateDisabled, model.ApprovalRejected
	s.Servers[3].Reason = model.Reason{Kind: model.ReasonRejectedByYou}
	s.Servers[3].Blockers = []model.Reason{{Kind: model.ReasonRejectedByYou}}
	return s
}

func TestRejectedServerSaysHowToApprove(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		h := newHarness(t, newFakeEngine(freshRejected()), 120, 30)
		h.keys("esc")
		h.wantView("⊖ fresh       stdio  rejected by you · A approve")
		h.selectServer("fresh")
		h.wantView("enter open • A approve • d disable") // the footer offers it too
	})
}

// TestRejectedServerIsCountedAsRejected: the header counts a project
// server the person rejected as rejected, not with the disabled ones, and
// its state says so.
func TestRejectedServerIsCountedAsRejected(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		h := newHarness(t, newFakeEngine(freshRejected()), 140, 30)
		h.keys("esc")
		h.wantView("○ 1 disabled", "⊖ 1 rejected", "⊖ fresh       stdio  rejected by you · A approve")
		h.selectServer("fresh")
		h.keys("enter")
		h.wantView("⊖ fresh  project · stdio · rejected by you", "State      rejected by you")
		h.send(tea.WindowSizeMsg{Width: 60, Height: 15}) // glyphs only: rejected still apart
		h.wantView("○ 1  ⊘ 1  ? 1  ⊖ 1")
	})
}
