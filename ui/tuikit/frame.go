package tuikit

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// SafeFrame is the TUI's last line of defence: the whole frame passes
// textsafe.SanitizeStyled, which keeps the program's own SGR colours and
// removes every other escape, control, bidi and tag character, and tabs
// become spaces. Renderers still clean each field (textsafe.SanitizeLine for
// one-line fields, Clean for blocks) so that layout is right; this makes a
// forgotten field harmless. docs/ARCHITECTURE.md lists the choke points.
func SafeFrame(s string) string {
	return strings.ReplaceAll(textsafe.SanitizeStyled(s), "\t", " ")
}

// FitLines cuts every line to width columns and the text to exactly height
// lines, so nothing a component draws can spill past the terminal.
func FitLines(s string, width, height int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > height {
		lines = lines[:height]
	}
	var b strings.Builder
	b.Grow(len(s) + height)
	for i := 0; i < height; i++ {
		if i > 0 {
			b.WriteByte('\n')
		}
		if i < len(lines) {
			l := lines[i]
			if ansi.StringWidth(l) > width {
				l = ansi.Truncate(l, width, "…")
			}
			b.WriteString(l)
		}
	}
	return b.String()
}
