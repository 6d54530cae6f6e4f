package textsafe

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Sanitize is the one filter between outside text (config files, servers,
// authorization servers, stderr) and a terminal, for multi-line blocks: it
// removes whole escape sequences (CSI, OSC, DCS, SOS, PM, APC, in their ESC
// and C1 forms, and two- or three-byte ESC sequences) and every other
// HiddenRune except newline and tab: C0/C1 controls, format characters
// (bidi overrides and isolates, zero-width and invisible characters, the
// BOM, tags), the Hangul fillers, and U+2028/U+2029, which are removed
// rather than turned into newlines so that cleaning a field never adds a
// line to the layout measured around it. Invalid UTF-8 becomes U+FFFD.
// The result cannot move the cursor, recolour, set the title or
// clipboard, reorder what surrounds it, or hide a character inside a word.
// docs/ARCHITECTURE.md says where it is called.
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
// in the approval prompt): every HiddenRune, newline and tab included,
// and every LookAlikeRune becomes a visible Go-style escape (\x1b, \r,
// \n, \u202e, \u2064, \u2028, \u00a0, \ufe0f, \U000e0041) and an invalid
// byte becomes \xff. Nothing else changes.
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
		case r <= 0xFFFF && (dropRune(r) || LookAlikeRune(r)):
			fmt.Fprintf(&b, `\u%04x`, r)
		case dropRune(r) || LookAlikeRune(r):
			fmt.Fprintf(&b, `\U%08x`, r)
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}

// isClean reports whether s needs no change: valid UTF-8 with no rune that
// dropRune removes. keepSpace is Sanitize's question: newline and tab are
// clean only then; otherwise (Escape's) a LookAlikeRune is not.
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
		if (size == 1 && r == utf8.RuneError) || dropRune(r) || (!keepSpace && LookAlikeRune(r)) {
			return false
		}
		i += size - 1
	}
	return true
}

// dropRune reports whether Sanitize removes r: a HiddenRune other than
// newline and tab.
func dropRune(r rune) bool {
	return r != '\n' && r != '\t' && HiddenRune(r)
}
