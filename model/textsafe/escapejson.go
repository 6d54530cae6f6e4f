package textsafe

import (
	"fmt"
	"unicode/utf8"
)

// EscapeJSON rewrites encoded JSON so that it is safe on a terminal and
// still means the same: encoding/json escapes only characters below 0x20
// (and U+2028/U+2029), so a server's U+202E, C1 controls, DEL or tag
// characters would reach the terminal raw inside a string. Every character
// Sanitize would remove, except the newline and tab that indentation puts
// between tokens, becomes a \uXXXX escape (a surrogate pair above U+FFFF),
// and a byte that is not UTF-8 becomes \ufffd. Outside strings valid JSON is
// ASCII, so only string contents change.
func EscapeJSON(b []byte) []byte {
	if isClean(string(b), true) {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case size == 1 && r == utf8.RuneError:
			out = append(out, `\ufffd`...)
		case r == '\n' || r == '\t' || !dropRune(r):
			out = append(out, b[i:i+size]...)
		case r > 0xFFFF:
			r -= 0x10000
			out = fmt.Appendf(out, `\u%04x\u%04x`, 0xD800+(r>>10), 0xDC00+(r&0x3FF))
		default:
			out = fmt.Appendf(out, `\u%04x`, r)
		}
		i += size
	}
	return out
}
