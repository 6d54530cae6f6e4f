package ui

import (
	"strings"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/status"
	"github.com/mcpdeck/mcpdeck/ui/styles"
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

// whyPanel renders whyLines in a bordered panel of the given width.
func whyPanel(st *styles.Styles, s *engine.ServerSnapshot, width int) []string {
	lines := whyLines(st, s)
	if len(lines) == 0 {
		return nil
	}
	body := st.Heading.Render("Why isn't this running?") + "\n" + strings.Join(lines, "\n")
	return strings.Split(st.Panel.Width(max(width-2, 10)).Render(body), "\n")
}
