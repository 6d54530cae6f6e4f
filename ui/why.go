package ui

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
			out = append(out, diffLines(st, w.Diff)...)
		}
	}
	return out
}

// diffLines colours a line-based diff: + added, - removed.
func diffLines(st *styles.Styles, diff string) []string {
	lines := strings.Split(strings.TrimRight(diff, "\n"), "\n")
	for i, l := range lines {
		l = textsafe.SanitizeLine(l)
		switch {
		case strings.HasPrefix(l, "+"):
			lines[i] = st.DiffAdd.Render(l)
		case strings.HasPrefix(l, "-"):
			lines[i] = st.DiffDel.Render(l)
		default:
			lines[i] = st.Code.Render(l)
		}
	}
	return lines
}

// whyPanel renders whyLines in a bordered panel of the given width,
// wrapped by tuikit.Wrap first (the panel's own wrapping would split a
// hyphenated word at the edge).
func whyPanel(st *styles.Styles, s *engine.ServerSnapshot, width int) []string {
	lines := whyLines(st, s)
	if len(lines) == 0 {
		return nil
	}
	outer := max(width-2, 10)
	body := tuikit.Wrap(st.Heading.Render("Why isn't this running?")+"\n"+strings.Join(lines, "\n"), outer-st.Panel.GetHorizontalPadding())
	return strings.Split(st.Panel.Width(outer).Render(body), "\n")
}
