// Package styles holds the TUI's semantic styles. Components ask for meaning
// ("good", "muted", "selected") rather than colours, so the palette can change
// in one place and the screen stays readable in 16-colour terminals, on light
// backgrounds and without colour at all (NO_COLOR).
package styles

import (
	"os"

	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/lipgloss"
)

// Palette names the colours the styles are built from. ANSI indexes 0–15 are
// used so that a 16-colour terminal renders them with its own theme; each
// colour has a light- and a dark-background variant.
type Palette struct {
	Text, Muted, Accent, Good, Warn, Bad, Auth, Off, SelectedBg lipgloss.TerminalColor
}

// DefaultPalette is the palette used by New.
func DefaultPalette() Palette {
	return Palette{
		Text:       lipgloss.AdaptiveColor{Light: "0", Dark: "15"},
		Muted:      lipgloss.AdaptiveColor{Light: "8", Dark: "7"},
		Accent:     lipgloss.AdaptiveColor{Light: "4", Dark: "12"},
		Good:       lipgloss.AdaptiveColor{Light: "2", Dark: "10"},
		Warn:       lipgloss.AdaptiveColor{Light: "3", Dark: "11"},
		Bad:        lipgloss.AdaptiveColor{Light: "1", Dark: "9"},
		Auth:       lipgloss.AdaptiveColor{Light: "5", Dark: "13"},
		Off:        lipgloss.AdaptiveColor{Light: "8", Dark: "8"},
		SelectedBg: lipgloss.AdaptiveColor{Light: "7", Dark: "8"},
	}
}

// Styles are the semantic styles every component renders with.
type Styles struct {
	Title     lipgloss.Style // app title in the header
	Heading   lipgloss.Style // section and group headings
	Text      lipgloss.Style
	Muted     lipgloss.Style // secondary information
	Accent    lipgloss.Style
	Selected  lipgloss.Style // the row under the cursor
	Good      lipgloss.Style // connected
	Warn      lipgloss.Style // pending, awaiting approval
	Bad       lipgloss.Style // failed, errors
	Auth      lipgloss.Style // needs-auth
	Off       lipgloss.Style // disabled
	Key       lipgloss.Style // a key name in prose
	TabActive lipgloss.Style
	Tab       lipgloss.Style
	Panel     lipgloss.Style // a bordered box (prompts, why-not-running)
	Code      lipgloss.Style // config, diffs, JSON
	DiffAdd   lipgloss.Style
	DiffDel   lipgloss.Style
}

// New builds the styles from p. With noColor set only bold, underline and
// reverse video are used, so meaning is still carried by glyphs and text.
func New(p Palette, noColor bool) Styles {
	c := func(s lipgloss.Style, col lipgloss.TerminalColor) lipgloss.Style {
		if noColor {
			return s
		}
		return s.Foreground(col)
	}
	base := lipgloss.NewStyle()
	s := Styles{
		Title:     c(base.Bold(true), p.Accent),
		Heading:   c(base.Bold(true), p.Accent),
		Text:      c(base, p.Text),
		Muted:     c(base, p.Muted),
		Accent:    c(base, p.Accent),
		Good:      c(base, p.Good),
		Warn:      c(base, p.Warn),
		Bad:       c(base, p.Bad),
		Auth:      c(base, p.Auth),
		Off:       c(base, p.Off),
		Key:       c(base.Bold(true), p.Accent),
		TabActive: c(base.Bold(true).Underline(true), p.Accent),
		Tab:       c(base, p.Muted),
		Panel:     c(base.Border(lipgloss.RoundedBorder()).Padding(0, 1), p.Muted),
		Code:      c(base, p.Text),
		DiffAdd:   c(base, p.Good),
		DiffDel:   c(base, p.Bad),
	}
	if noColor {
		s.Selected = base.Reverse(true)
	} else {
		s.Selected = base.Bold(true).Background(p.SelectedBg)
	}
	if !noColor {
		s.Panel = s.Panel.BorderForeground(p.Accent).UnsetForeground()
	}
	return s
}

// Default returns the styles for the current environment: NO_COLOR (any
// non-empty value, see no-color.org) turns colour off.
func Default() Styles {
	return New(DefaultPalette(), os.Getenv("NO_COLOR") != "")
}

// Form is the theme of the forms (tool arguments, elicitation): huh's
// 16-colour theme, so that forms follow the terminal's own palette like the
// rest of the screen. Under NO_COLOR the program's colour profile (set to
// ASCII by the CLI) drops its colours and keeps its text markers (┃, ← →).
func (s Styles) Form() *huh.Theme { return huh.ThemeBase16() }
