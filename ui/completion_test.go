package ui

import (
	"slices"
	"strings"
	"testing"
)

// TestPromptArgumentsOfferServerCompletions: a prompt's arguments show the
// server's suggestions for the focused field, asked with the other fields
// as context; ctrl+e takes the one matching what is typed. The fetch runs
// in a Cmd, never in Update.
func TestPromptArgumentsOfferServerCompletions(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		h := newHarness(t, newFakeEngine(fixture()), 100, 30)
		h.keys("esc")
		h.selectServer("notes")
		h.keys("p", "enter") // the prompt picker, then "summarize"
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
