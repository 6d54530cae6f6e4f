package ui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/status"
	"github.com/mcpdeck/mcpdeck/ui/styles"
)

// glyph returns the state glyph in its tone.
func glyph(st *styles.Styles, s *engine.ServerSnapshot) string {
	k := status.KindOf(s)
	return toneStyle(st, k.Tone()).Render(k.Glyph())
}

// toneStyle maps a status tone to its style.
func toneStyle(st *styles.Styles, t status.Tone) lipgloss.Style {
	switch t {
	case status.ToneGood:
		return st.Good
	case status.ToneWarn:
		return st.Warn
	case status.ToneBad:
		return st.Bad
	case status.ToneAuth:
		return st.Auth
	case status.ToneOff:
		return st.Off
	case status.ToneText:
	}
	return st.Text
}

func (l *serverList) renderRow(s *engine.ServerSnapshot, selected bool) string {
	name := ansi.Truncate(textsafe.SanitizeLine(s.Name), l.nameW, "…")
	name += strings.Repeat(" ", max(0, l.nameW-ansi.StringWidth(name)))
	transport := fmt.Sprintf("%-5s", s.Transport)
	room := l.width - ansi.StringWidth("› "+status.KindOf(s).Glyph()+" "+name+"  "+transport+"  ")
	text, style := l.rowText(s, room)
	if selected {
		// plain text under one style: inner resets would cut the highlight
		line := ansi.Strip("› " + glyph(l.st, s) + " " + name + "  " + transport + "  " + text)
		line = ansi.Truncate(line, l.width, "…")
		line += strings.Repeat(" ", max(0, l.width-ansi.StringWidth(line)))
		return l.st.Selected.Render(line)
	}
	line := "  " + glyph(l.st, s) + " " + name + "  " + l.st.Muted.Render(transport) + "  " + style.Render(text)
	return ansi.Truncate(line, l.width, "…")
}

// rowText is what a row says after the transport, in room columns: the
// state, then what is worth knowing about the server. When it does not
// fit, whole parts are left out rather than a word cut: the token cost
// first, then the state's own details from the last ("1 prompt", a key's
// hint), then "sandboxed"; only the state's first part is ever cut (the
// detail view says it whole).
func (l *serverList) rowText(s *engine.ServerSnapshot, room int) (string, lipgloss.Style) {
	state, style := rowStatus(l.st, s, l.now(), l.hints)
	// parts in the order shown; keep is how long each stays as room
	// shrinks (higher stays longer), 0 for a part never left out
	type part struct {
		text  string
		keep  int
		style *lipgloss.Style // the row's style while the part is shown, or nil
	}
	var parts []part
	changed := status.PinsRow(s)
	if changed != "" { // first: it is why the row is a warning
		parts = append(parts, part{text: "⚠ " + changed})
	}
	if s.Editor != nil { // an editor's server: which editor, as its row's label
		parts = append(parts, part{text: textsafe.SanitizeLine(s.Editor.Name)})
	}
	// errors, reasons, rules are outside text
	for i, seg := range strings.Split(textsafe.SanitizeLine(state), " · ") {
		keep := 0
		if i > 0 {
			keep = 100 - i // the last detail goes first
		}
		parts = append(parts, part{text: seg, keep: keep})
	}
	denied := len(s.ToolsDeniedBy) > 0 && len(s.Tools) > 0
	if denied {
		// what costs nothing because it is all denied says why, not "~0 tokens"
		parts = append(parts, part{status.ToolsDeniedShort(s.ToolsDeniedBy), 300, &l.st.Bad})
	}
	if s.Config.Sandbox != nil {
		parts = append(parts, part{"sandboxed", 200, nil})
	}
	if cost, over := l.costs.Label(s); cost != "" && !denied {
		p := part{text: cost, keep: 1}
		if over {
			p.text += " ⚠"
			p.style = &l.st.Warn
		}
		parts = append(parts, p)
	}
	join := func() string {
		var words []string
		for _, p := range parts {
			words = append(words, p.text)
		}
		return strings.Join(words, " · ")
	}
	for ansi.StringWidth(join()) > room {
		low := -1
		for i, p := range parts {
			if p.keep > 0 && (low < 0 || p.keep < parts[low].keep) {
				low = i
			}
		}
		if low < 0 {
			break // the state alone: cut at the row's end
		}
		parts = slices.Delete(parts, low, low+1)
	}
	for _, p := range parts {
		if p.style != nil {
			style = *p.style
		}
	}
	if changed != "" {
		style = l.st.Warn
	}
	return join(), style
}

// rowStatus is the short text after a server's name, in its tone.
func rowStatus(st *styles.Styles, s *engine.ServerSnapshot, now time.Time, h status.Hints) (string, lipgloss.Style) {
	text, tone := status.Row(s, now, h)
	return text, toneStyle(st, tone)
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}
