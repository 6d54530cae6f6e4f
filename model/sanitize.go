package model

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Sanitize is the one filter between outside text (config files, servers,
// authorization servers, stderr) and a terminal, for multi-line blocks: it
// removes whole escape sequences (CSI, OSC, DCS, SOS, PM, APC, in their ESC
// and C1 forms, and two- or three-byte ESC sequences), every other C0/C1
// control except newline and tab, bidirectional overrides and isolates,
// zero-width characters, the BOM and Unicode tag characters. Invalid UTF-8
// becomes U+FFFD. The result cannot move the cursor, recolour, set the
// title or clipboard, or reorder what surrounds it. docs/ARCHITECTURE.md
// says where it is called.
func Sanitize(s string) string {
	if isClean(s, true) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if size == 1 && r == utf8.RuneError {
			b.WriteRune(utf8.RuneError)
			i++
			continue
		}
		if n := escapeSequenceLen(s[i:]); n > 0 {
			i += n
			continue
		}
		if !dropRune(r) {
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}

// SanitizeLine is Sanitize for one-line fields (names, URIs, titles, error
// messages): newlines and tabs become spaces, so the field cannot add a
// line to a table or prompt.
func SanitizeLine(s string) string {
	s = Sanitize(s)
	if !strings.ContainsAny(s, "\n\t") {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' {
			return ' '
		}
		return r
	}, s)
}

// Escape shows what Sanitize would remove instead of removing it, for text
// the person must see exactly (a command argument, an env value, a header
// in the approval prompt): every control, escape, bidi, invisible or tag
// character becomes a visible Go-style escape (\x1b, \r, \n, \u202e,
// \U000e0041) and an invalid byte becomes \xff. Nothing else changes.
func Escape(s string) string {
	if isClean(s, false) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case size == 1 && r == utf8.RuneError:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x80 && dropRune(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case r <= 0xFFFF && dropRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		case dropRune(r):
			fmt.Fprintf(&b, `\U%08x`, r)
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}

// isClean reports whether s needs no change: valid UTF-8 with no rune that
// dropRune removes (newline and tab allowed only when keepSpace).
func isClean(s string, keepSpace bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c < 0x7F {
			continue
		}
		if c == '\n' || c == '\t' {
			if keepSpace {
				continue
			}
			return false
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (size == 1 && r == utf8.RuneError) || dropRune(r) {
			return false
		}
		i += size - 1
	}
	return true
}

// dropRune reports whether Sanitize removes r (newline and tab excepted).
func dropRune(r rune) bool {
	if r == '\n' || r == '\t' {
		return false
	}
	if unicode.IsControl(r) {
		return true
	}
	switch {
	case r == 0x061C, r == 0x200E, r == 0x200F, // arabic letter mark, LRM, RLM
		r >= 0x202A && r <= 0x202E, // LRE RLE PDF LRO RLO
		r >= 0x2066 && r <= 0x2069, // LRI RLI FSI PDI
		r >= 0x200B && r <= 0x200D, // zero-width space / non-joiner / joiner
		r == 0x2060, r == 0xFEFF,   // word joiner, BOM
		r >= 0xE0000 && r <= 0xE007F: // tag characters (invisible ASCII)
		return true
	}
	return false
}
