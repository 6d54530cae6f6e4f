package ui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpdeck/mcpdeck/model/imports"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/status"
	"github.com/mcpdeck/mcpdeck/ui/tuikit"
)

// View draws header, body (modal, detail or list), status line and footer,
// cut to the terminal so that nothing wraps.
func (m *Model) View() string {
	bh := m.bodyHeight()
	var body string
	if top := m.top(); top != nil {
		body = top.View(m.width, bh)
		m.guard.Drawn() // the guard's prompt is the top (guardTop ran after the last Update)
	} else {
		body = m.current().View()
	}
	var b strings.Builder
	b.WriteString(m.header())
	b.WriteByte('\n')
	b.WriteString(tuikit.FitLines(body, m.width, bh))
	b.WriteByte('\n')
	b.WriteString(m.statusLine())
	b.WriteByte('\n')
	b.WriteString(m.footer())
	return tuikit.FitLines(tuikit.SafeFrame(b.String()), m.width, m.height)
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
	// what Claude Code knows and mcpdeck does not: said once, at the top,
	// with the command when there is room (? lists the whole notice)
	var extra []string
	if u := m.snap.Unimported; u != nil {
		extra = []string{"  " + st.Warn.Render("↓ "+u.Short()+": "+imports.ImportCommand), "  " + st.Warn.Render("↓ "+u.Short())}
	}
	for _, words := range []bool{true, false} {
		s := render(words)
		for _, x := range extra {
			if ansi.StringWidth(s+x) <= m.width {
				return s + x
			}
		}
		if ansi.StringWidth(s) <= m.width {
			return s
		}
	}
	return render(false)
}

// statusLine is the newest message (the result of the last action) in
// full, then the notices (config problems, warnings such as tokens kept in
// a file for want of a keychain) in the room left: a notice that stays for
// the whole session never hides a message, and a message never hides that
// there are notices. A config problem keeps its words beside a message
// (after ctrl+r on a broken file: "reload config: done · ⚠ config problem:
// …", not only "done" while the file's servers are gone); warnings are
// then counted ("⚠ 1 notice: ? lists it"); with no message, the first
// notice is shown, cut so that the count of the others stays on screen.
func (m *Model) statusLine() string {
	msg := textsafe.SanitizeLine(m.status)
	line := ""
	if msg != "" {
		line = m.st.Muted.Render(msg)
		if m.statusErr {
			line = m.st.Bad.Render(msg)
		}
	}
	n := m.notices()
	if len(n) == 0 {
		return line
	}
	room := m.width
	if msg != "" {
		room -= ansi.StringWidth(msg) + len(" · ")
	}
	tone := m.st.Warn
	if len(m.snap.Problems) > 0 {
		tone = m.st.Bad
	}
	notice := noticeText(n, msg != "" && len(m.snap.Problems) == 0, room)
	switch {
	case notice == "":
		return line
	case msg == "":
		return tone.Render(notice)
	}
	return line + " · " + tone.Render(notice)
}

// noticeText words the notices in room columns: counted when counted is
// set, else the first in its own words, cut so that the count of the
// others ("(+2 more: ? lists them)") stays whole. "" when nothing useful
// fits.
func noticeText(n []string, counted bool, room int) string {
	if counted {
		s := fmt.Sprintf("⚠ %d notices: ? lists them", len(n))
		if len(n) == 1 {
			s = "⚠ 1 notice: ? lists it"
		}
		if ansi.StringWidth(s) > room {
			return ""
		}
		return s
	}
	more := ""
	if len(n) > 1 {
		more = fmt.Sprintf(" (+%d more: ? lists them)", len(n)-1)
	}
	first := "⚠ " + textsafe.SanitizeLine(n[0])
	avail := room - ansi.StringWidth(more)
	if avail < 12 {
		return ""
	}
	if ansi.StringWidth(first) > avail {
		first = ansi.Truncate(first, avail, "…")
	}
	return first + more
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
