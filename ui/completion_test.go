package ui

import (
	"slices"
	"strings"
	"testing"
)

// summarizeForm opens the form of the notes server's prompt "summarize",
// whose fields the fake engine completes.
func summarizeForm(t *testing.T) *harness {
	t.Helper()
	h := newHarness(t, newFakeEngine(fixture()), 100, 30)
	h.keys("esc")
	h.selectServer("notes")
	h.keys("p", "enter") // the prompt picker, then "summarize"
	return h
}

// TestPromptArgumentsOfferServerCompletions: a prompt's arguments show the
// server's suggestions for the focused field, asked with the other fields
// as context; ctrl+e takes the one matching what is typed. The fetch runs
// in a Cmd, never in Update.
func TestPromptArgumentsOfferServerCompletions(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		h := summarizeForm(t)
		h.wantView("suggestions: groceries · garden · work (ctrl+e completes)")
		h.keys("ga")
		h.send(keyMsg("ctrl+e")...)
		h.keys("tab")
		h.wantView("suggestions: haiku · list")
		if got := h.eng.Actions(); !slices.Contains(got, "complete notes summarize style map[topic:garden]") {
			t.Fatalf("the second field was not completed with the first as context: %v", got)
		}
		h.keys("enter")
		if got := h.eng.Actions(); !slices.ContainsFunc(got, func(a string) bool { return strings.HasPrefix(a, "prompt notes summarize") }) {
			t.Fatalf("prompt not sent: %v", got)
		}
		if h.eng.prompt["topic"] != "garden" {
			t.Errorf("ctrl+e did not complete the topic: %v", h.eng.prompt)
		}
	})
}

// TestCtrlEOnAnEmptyFieldOffersTheSuggestions: ctrl+e on an empty field
// lists its suggestions to choose from (arrows move, enter takes one into
// the field, esc closes the list and keeps the form); with text typed it
// still completes it.
func TestCtrlEOnAnEmptyFieldOffersTheSuggestions(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		h := summarizeForm(t)
		h.wantView("suggestions: groceries · garden · work (ctrl+e completes)")
		h.keys("ctrl+e")
		h.wantView("› groceries", "  garden", "  work", "↑/↓ choose • enter take • esc close")
		golden(t, "form_suggestions", h.view())
		h.keys("down", "enter")
		h.wantView("> garden", "enter/tab next")
		if strings.Contains(h.view(), "› groceries") || strings.Contains(h.view(), "  work") {
			t.Fatalf("the list stayed open after a suggestion was taken:\n%s", h.view())
		}
		h.keys("tab")
		h.wantView("suggestions: haiku · list")
		h.keys("ctrl+e", "esc")
		if len(h.m.modals) == 0 || strings.Contains(h.view(), "› haiku") {
			t.Fatalf("esc did not close only the list:\n%s", h.view())
		}
		h.keys("ctrl+e", "up", "enter") // the cursor wraps to the last one
		h.wantView("> list")
		h.keys("enter")
		if got := h.eng.prompt; got["topic"] != "garden" || got["style"] != "list" {
			t.Errorf("the chosen suggestions were not sent: %v", got)
		}
	})
}

// TestCtrlEWithNothingToOfferSaysSo: ctrl+e on an empty field the server
// has no suggestions for says so (a key that does nothing would leave the
// person guessing), and the next key clears it.
func TestCtrlEWithNothingToOfferSaysSo(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		h := summarizeForm(t)
		h.keys("work", "tab") // no style is suggested for "work"
		h.keys("ctrl+e")
		h.wantView("no suggestions for style")
		h.keys("x")
		if strings.Contains(h.view(), "no suggestions for style") {
			t.Fatalf("the note stayed after a key:\n%s", h.view())
		}
		h.wantView("> x")
	})
}
