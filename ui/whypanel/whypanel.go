// Package whypanel draws why a server is not running, in the detail
// view's overview: status.Why's sentences as bullets in a panel, a changed
// definition's diff coloured.
package whypanel

import (
	"strings"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/status"
	"github.com/mcpdeck/mcpdeck/ui/styles"
	"github.com/mcpdeck/mcpdeck/ui/tuikit"
)

// whyLines renders status.Why as bullets; a reason carrying a diff
// (changed since approval) has its diff lines coloured. nil for a
// connected server.
func whyLines(st *styles.Styles, s *engine.ServerSnapshot) []string {
	var out []string
	for _, w := range status.Why(s) {
		out = append(out, "• "+textsafe.SanitizeLine(w.Text))
		if w.Diff != "" {
			out = append(out, tuikit.DiffLines(st, w.Diff)...)
		}
	}
	return out
}

// Panel renders whyLines in a bordered panel of the given width,
// wrapped by tuikit.Wrap first (the panel's own wrapping would split a
// hyphenated word at the edge).
func Panel(st *styles.Styles, s *engine.ServerSnapshot, width int) []string {
	lines := whyLines(st, s)
	if len(lines) == 0 {
		return nil
	}
	outer := max(width-2, 10)
	body := tuikit.Wrap(st.Heading.Render("Why isn't this running?")+"\n"+strings.Join(lines, "\n"), outer-st.Panel.GetHorizontalPadding())
	return strings.Split(st.Panel.Width(outer).Render(body), "\n")
}
