package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/ui/promptguard"
)

// noAnswer fails when the prompt was answered.
func noAnswer[T any](t *testing.T, got <-chan T) {
	t.Helper()
	select {
	case r := <-got:
		t.Fatalf("a key typed before the prompt was on screen answered it: %+v", r)
	default:
	}
}

// TestTypedAheadKeysDoNotAnswerAPrompt: keys typed in one burst, with a
// server's prompt opening in the middle of it, are not given to that prompt
// (the status line says so, and the footer shows no keys yet); once it has
// been drawn and a window went by with no key, it takes keys as usual.
func TestTypedAheadKeysDoNotAnswerAPrompt(t *testing.T) {
	formReq := engine.ElicitRequest{Server: "notes", Mode: "form", Message: "Who is asking?", Schema: elicitSchema}
	urlReq := engine.ElicitRequest{Server: "notes", Mode: "url", Message: "Sign the form", URL: "https://example.com/form"}
	t.Run("form elicitation", func(t *testing.T) {
		inBubble(t, func(t *testing.T) {
			h := newHarness(t, newFakeEngine(fixture()), 100, 30)
			h.keys("esc")
			got := elicitAsync(h, t.Context(), formReq)
			h.burst("Ada", "enter", "enter", "enter", "ctrl+d", "esc")
			noAnswer(t, got)
			v := h.m.View()
			for _, want := range []string{"Request from notes", "keys typed before this prompt was on screen were not given to it"} {
				if !strings.Contains(v, want) {
					t.Fatalf("view lacks %q:\n%s", want, v)
				}
			}
			if strings.Contains(v, "Ada") || strings.Contains(v, "ctrl+d decline") {
				t.Fatalf("the prompt took typed-ahead text or shows keys that do not work yet:\n%s", v)
			}
			golden(t, "prompt_unarmed", v)
			h.keys("Bo", "enter", "enter", "enter")
			if r := <-got; r.Action != "accept" || r.Content["name"] != "Bo" {
				t.Fatalf("got %+v", r)
			}
		})
	})
	t.Run("url elicitation", func(t *testing.T) {
		inBubble(t, func(t *testing.T) {
			h := newHarness(t, newFakeEngine(fixture()), 100, 30)
			h.keys("esc")
			got := elicitAsync(h, t.Context(), urlReq)
			h.burst("tab", "tab", "enter")
			noAnswer(t, got)
			h.wantView("notes needs you to visit a page", "enter done")
			h.keys("enter")
			if r := <-got; r.Action != "accept" {
				t.Fatalf("got %+v", r)
			}
		})
	})
	t.Run("sampling", func(t *testing.T) {
		inBubble(t, func(t *testing.T) {
			h := newHarness(t, newFakeEngine(fixture()), 100, 30)
			h.keys("esc")
			got := sampleAsync(h, t.Context(), sampleReq)
			h.burst("A", "x", "X")
			noAnswer(t, got)
			h.keys("x")
			if r := <-got; r.Choice != engine.SampleDecline {
				t.Fatalf("got %+v", r)
			}
		})
	})
	t.Run("approval at start", func(t *testing.T) {
		inBubble(t, func(t *testing.T) {
			h := newHarness(t, newFakeEngine(fixture()), 100, 30)
			h.burst("A", "enter")
			if a := h.eng.Actions(); len(a) != 0 {
				t.Fatalf("a key typed before the approval prompt showed approved: %v", a)
			}
			h.wantView("Project server", "Only approve servers")
		})
	})
	t.Run("approval showing a changed definition", func(t *testing.T) {
		inBubble(t, func(t *testing.T) {
			s := fixture()
			h := newHarness(t, newFakeEngine(s), 100, 30)
			h.wantView("Project server", "Only approve servers")
			s.Servers[2].Hash = "h2-changed" // the repository changed the server on screen
			h.eng.publish(s)
			h.settle()
			h.burst("A")
			if a := h.eng.Actions(); len(a) != 0 {
				t.Fatalf("a key typed before the prompt showed the new definition approved it: %v", a)
			}
		})
	})
	t.Run("a prompt revealed by answering another", func(t *testing.T) {
		inBubble(t, func(t *testing.T) {
			h := newHarness(t, newFakeEngine(fixture()), 100, 30)
			h.keys("esc")
			first := elicitAsync(h, t.Context(), urlReq)
			second := elicitAsync(h, t.Context(), engine.ElicitRequest{Server: "remote-api", Mode: "url", Message: "Pay", URL: "https://example.com/pay"})
			h.wantView("remote-api needs you to visit a page")
			h.keys("enter")  // answers the one on screen, armed
			h.burst("enter") // a double press: the second enter was typed at the same prompt
			if r := <-second; r.Action != "accept" {
				t.Fatalf("got %+v", r)
			}
			noAnswer(t, first)
			h.wantView("notes needs you to visit a page")
		})
	})
}

// TestPromptGuardWindow: the guard arms only a prompt a View drew, and only
// after a window with no key; a key during the window starts another. In
// fake time, the window's own tick arms it.
func TestPromptGuardWindow(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		h := newHarness(t, newFakeEngine(fixture()), 100, 30)
		h.keys("esc")
		_ = elicitAsync(h, t.Context(), engine.ElicitRequest{Server: "notes", Mode: "url", Message: "Go", URL: "https://example.com/"})
		g := &h.m.guard
		h.send(g.Pending()) // not drawn yet
		if g.Armed() {
			t.Fatal("armed before a View drew the prompt")
		}
		h.m.View()
		stale := g.Pending()
		h.burst("tab") // a key during the window
		h.send(stale)
		if g.Armed() {
			t.Fatal("armed although a key came during the window")
		}
		time.Sleep(promptguard.ArmWindow - time.Millisecond)
		h.settle()
		if g.Armed() {
			t.Fatal("armed before a whole window went by")
		}
		time.Sleep(promptguard.ArmWindow)
		h.settle()
		if !g.Armed() {
			t.Fatal("not armed after a quiet window")
		}
		if !strings.Contains(h.m.View(), "enter done") {
			t.Fatalf("armed prompt shows no keys:\n%s", h.m.View())
		}
	})
}
