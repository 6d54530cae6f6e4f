package textsafe

import (
	"strings"
)

// SanitizeStyled is Sanitize for a whole screen that already carries the
// program's own colours: SGR sequences (ESC [ digits ; : m), which can only
// change colour and weight, are kept; everything between them is passed
// through Sanitize, one line at a time, so an unterminated sequence in one
// line cannot swallow the lines after it. The TUI runs every frame through
// it as the last step (ui/view.go), so a field a renderer forgot to clean
// still cannot move the cursor, set the title or clipboard, or reorder text.
func SanitizeStyled(s string) string {
	if isClean(s, true) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i, line := range strings.Split(s, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		for line != "" {
			start, end := nextSGR(line)
			b.WriteString(Sanitize(line[:start]))
			b.WriteString(line[start:end])
			line = line[end:]
		}
	}
	return b.String()
}

// nextSGR returns the bounds of the first SGR sequence in s, or
// (len(s), len(s)) when there is none.
func nextSGR(s string) (int, int) {
	for i := 0; i < len(s); i++ {
		if s[i] != 0x1b || i+1 >= len(s) || s[i+1] != '[' {
			continue
		}
		for j := i + 2; j < len(s); j++ {
			c := s[j]
			if c == 'm' {
				return i, j + 1
			}
			if (c < '0' || c > '9') && c != ';' && c != ':' {
				break
			}
		}
	}
	return len(s), len(s)
}
