package ui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/status"
)

// View draws header, body (modal, detail or list), status line and footer,
// cut to the terminal so that nothing wraps.
func (m *Model) View() string {
	bh := m.bodyHeight()
	var body string
	if top := m.top(); top != nil {
		body = top.View(m.width, bh)
	} else {
		body = m.current().View()
	}
	var b strings.Builder
	b.WriteString(m.header())
	b.WriteByte('\n')
	b.WriteString(fitLines(body, m.width, bh))
	b.WriteByte('\n')
	b.WriteString(m.statusLine())
	b.WriteByte('\n')
	b.WriteString(footerView(newHelp(&m.st), m.withHelpKey(m.footerKeys()), m.width))
	return fitLines(safeFrame(b.String()), m.width, m.height)
}

// header is the title and the count of servers per state, in words when
// they fit and as glyph and number when they do not.
func (m *Model) header() string {
	st := &m.st
	type part struct {
		glyph string
		style lipgloss.Style
		n     int
		label string
	}
	parts := make([]part, 0, status.NumKinds)
	for k := range status.Kind(status.NumKinds) {
		parts = append(parts, part{k.Glyph(), toneStyle(st, k.Tone()), m.counts[k], k.Label()})
	}
	render := func(words bool) string {
		var b strings.Builder
		b.WriteString(st.Title.Render(m.title))
		for _, p := range parts {
			if p.n == 0 {
				continue
			}
			b.WriteString("  " + p.style.Render(p.glyph) + " " + strconv.Itoa(p.n))
			if words {
				b.WriteString(" " + p.label)
			}
		}
		return b.String()
	}
	if s := render(true); ansi.StringWidth(s) <= m.width {
		return s
	}
	return render(false)
}

// statusLine is the result of the last action, else the first notice. A
// config problem is never hidden by a passing message: after ctrl+r on a
// broken file the line says "reload config: done · ⚠ config problem: …",
// not only "done" while the file's servers are gone.
func (m *Model) statusLine() string {
	status := textsafe.SanitizeLine(m.status)
	switch {
	case status != "" && m.statusErr:
		return m.st.Bad.Render(status)
	case status != "" && len(m.snap.Problems) == 0:
		return m.st.Muted.Render(status)
	}
	n := m.notices()
	if len(n) == 0 {
		return ""
	}
	line := "⚠ " + textsafe.SanitizeLine(n[0])
	if len(n) > 1 {
		line += fmt.Sprintf(" (+%d more: ? lists them)", len(n)-1)
	}
	if status != "" {
		line = status + " · " + line
	}
	if len(m.snap.Problems) > 0 {
		return m.st.Bad.Render(line)
	}
	return m.st.Warn.Render(line)
}

// notices are the config problems and engine warnings (such as tokens kept
// in a file for want of a keychain), problems first: the status line shows
// the first and counts the rest, and the help screen lists them all, so
// that one notice never hides another.
func (m *Model) notices() []string {
	out := make([]string, 0, len(m.snap.Problems)+len(m.snap.Warnings))
	for _, p := range m.snap.Problems {
		out = append(out, "config problem: "+p.Error())
	}
	return append(out, m.snap.Warnings...)
}
