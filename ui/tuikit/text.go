package tuikit

import (
	"strings"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/styles"
)

// Clean makes server-supplied text safe to draw: control and bidi
// characters (escape sequences included) are stripped and tabs expanded, so
// a hostile server's stderr cannot move the cursor or break the layout.
func Clean(s string) string {
	return strings.ReplaceAll(textsafe.Sanitize(s), "\t", "    ")
}

// FirstLine is s up to its first newline.
func FirstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// Panel draws lines in a bordered box that fits width×height: lines are
// wrapped to the width, and when they are too many the middle is cut (the
// first lines say what is asked, the last ones how to answer).
func Panel(st *styles.Styles, lines []string, width, height int) string {
	inner := max(width-4, 10)
	var wrapped []string
	for _, l := range lines {
		wrapped = append(wrapped, strings.Split(Wrap(l, inner), "\n")...)
	}
	if room := height - 2; len(wrapped) > room {
		dense := wrapped[:0:0]
		for _, l := range wrapped {
			if strings.TrimSpace(l) != "" {
				dense = append(dense, l)
			}
		}
		wrapped = dense
	}
	if room := height - 2; len(wrapped) > room && room >= 3 {
		head := room / 2
		tail := room - head - 1
		cut := append(append(wrapped[:head:head], st.Muted.Render("…")), wrapped[len(wrapped)-tail:]...)
		wrapped = cut
	}
	return st.Panel.Width(max(width-2, 10)).Render(strings.Join(wrapped, "\n"))
}

// JoinNonEmpty joins the non-empty parts.
func JoinNonEmpty(sep string, parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}

// DiffLines colours a line-based diff: + added, - removed.
func DiffLines(st *styles.Styles, diff string) []string {
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
