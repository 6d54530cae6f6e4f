package ui

import (
	"strings"
	"testing"
)

// TestFilterInTabsAndPickers: "/" filters the tools, resources and prompts
// tabs and the tool picker with the same filter as the server list; while
// typing, letters are text, not actions; enter keeps the filter and acts on
// the filtered selection; esc clears it.
func TestFilterInTabsAndPickers(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		h := newHarness(t, newFakeEngine(fixture()), 120, 30)
		h.keys("esc")
		h.selectServer("notes")
		h.keys("enter", "2") // the tools tab
		h.wantView("add_note", "list_notes", "search")
		h.keys("/", "sea", "enter") // "e", "a" and "s" typed, not run as actions
		if got := h.eng.Actions(); len(got) != 0 {
			t.Fatalf("typing in the filter ran %v", got)
		}
		v := h.view()
		if !strings.Contains(v, "search") || strings.Contains(v, "add_note") || strings.Contains(v, "list_notes") {
			t.Fatalf("tools not filtered by \"sea\":\n%s", v)
		}
		h.keys("enter") // call the one shown: search
		h.wantView("Call notes › search")
		h.keys("esc")
		h.keys("esc") // clears the filter, stays in the detail view
		h.wantView("add_note", "list_notes", "search")
		h.keys("3", "/", "zzz")
		h.wantView("nothing matches the filter")
		h.keys("esc", "esc", "esc") // clear, leave the detail view

		h.selectServer("notes")
		h.keys("c") // the tool picker
		h.wantView("Call a tool of notes", "add_note")
		h.keys("/", "list?")
		h.wantView("/list?", "f1 help") // ? is typed: help is on f1 while the filter is
		h.keys("backspace", "enter")
		h.wantView("? help")
		v = h.view()
		if !strings.Contains(v, "list_notes") || strings.Contains(v, "add_note") {
			t.Fatalf("picker not filtered:\n%s", v)
		}
		h.keys("enter") // the filtered choice, not the first of all
		h.wantView("Call notes › list_notes")
	})
}
