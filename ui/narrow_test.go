package ui

import (
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
)

// TestEightyColumnsLeaveOutWholeWords: at 80 columns a row that does not
// fit leaves out whole parts (the token count, then the state's last
// details) and keeps "sandboxed" whole, never "sandb…" or a lone "…"; the
// detail view's tab bar keeps every tab's whole name and leaves out the
// tabs farthest from the current one (‹ ›), never "Res", "Instr" or
// "Wire".
func TestEightyColumnsLeaveOutWholeWords(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		s := fixture()
		s.Servers[5].Config.Sandbox = &model.Sandbox{Profile: model.SandboxProfileDefault} // notes
		h := newHarness(t, newFakeEngine(s), 80, 24)
		h.keys("esc")
		h.selectServer("flaky") // notes' row is drawn unselected, in its styles
		row := lineWith(t, h.view(), " notes ")
		if !strings.Contains(row, "· sandboxed") || strings.Contains(row, "…") {
			t.Errorf("notes' row at 80 columns cuts a word: %q", row)
		}
		golden(t, "list_sandboxed_80x24", h.view())
		h.selectServer("notes")
		h.keys("enter")
		bar := strings.Split(h.view(), "\n")[2]
		for _, short := range []string{"Info", "Res ", "Instr ", "Sk ", "Wire"} {
			if strings.Contains(bar, short) {
				t.Errorf("the tab bar abbreviates (%q): %q", short, bar)
			}
		}
		if !strings.HasPrefix(bar, "[Overview]") || !strings.HasSuffix(strings.TrimRight(bar, " "), "›") {
			t.Errorf("the tab bar does not show whole names, marking those left out: %q", bar)
		}
		golden(t, "detail_overview_80x24", h.view())
	})
}

// lineWith is the line of view that contains s.
func lineWith(t *testing.T, view, s string) string {
	t.Helper()
	for _, l := range strings.Split(view, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	t.Fatalf("no line with %q in:\n%s", s, view)
	return ""
}
