package ui

import (
	"fmt"
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
	text, style := rowStatus(l.st, s, l.now(), l.hints)
	if s.Editor != nil { // an editor's server: which editor, as its row's label
		text = s.Editor.Name + " · " + text
	}
	text = textsafe.SanitizeLine(text) // errors, reasons, rules and editors' names are outside text
	if s.Config.Sandbox != nil {
		text += " · sandboxed"
	}
	if cost, over := l.costs.label(s); cost != "" {
		text += " · " + cost
		if over {
			text += " ⚠"
			style = l.st.Warn
		}
	}
	if changed := status.PinsRow(s); changed != "" { // first: a narrow row cuts the end
		text = "⚠ " + changed + " · " + text
		style = l.st.Warn
	}
	transport := fmt.Sprintf("%-5s", s.Transport)
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
