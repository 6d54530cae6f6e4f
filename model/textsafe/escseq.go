package textsafe

import (
	"unicode/utf8"
)

// escapeSequenceLen returns the length in bytes of the terminal escape
// sequence at the start of s, or 0 when s does not start with one. It knows
// the 7-bit forms (ESC [ CSI, ESC ] OSC, ESC P DCS, ESC X SOS, ESC ^ PM,
// ESC _ APC, and ESC followed by intermediates and a final byte) and their
// C1 forms (U+009B, U+009D, U+0090, U+0098, U+009E, U+009F). A string
// sequence without its terminator runs to the end of s, as a terminal
// would read it.
func escapeSequenceLen(s string) int {
	if s == "" {
		return 0
	}
	var kind byte
	intro := 0
	if s[0] == 0x1b {
		if len(s) == 1 {
			return 1
		}
		kind, intro = s[1], 2
		switch kind {
		case '[', ']', 'P', 'X', '^', '_':
		default:
			return escTail(s)
		}
	} else {
		r, size := utf8.DecodeRuneInString(s)
		switch r {
		case 0x9b:
			kind = '['
		case 0x9d:
			kind = ']'
		case 0x90:
			kind = 'P'
		case 0x98:
			kind = 'X'
		case 0x9e:
			kind = '^'
		case 0x9f:
			kind = '_'
		default:
			return 0
		}
		intro = size
	}
	if kind == '[' {
		return intro + csiTail(s[intro:])
	}
	return intro + stringTail(s[intro:], kind == ']')
}

// csiTail is the length of a CSI sequence's parameters, intermediates and
// final byte. A byte outside the CSI grammar ends it without being taken,
// so a broken sequence cannot swallow the text after it.
func csiTail(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x20 && c <= 0x3F: // parameters and intermediates
		case c >= 0x40 && c <= 0x7E: // final byte
			return i + 1
		default:
			return i
		}
	}
	return len(s)
}

// stringTail is the length of an OSC/DCS/SOS/PM/APC body with its
// terminator: ST (ESC \ or U+009C), or BEL for OSC.
func stringTail(s string, bel bool) int {
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\':
			return i + 2
		case s[i] == 0x07 && bel:
			return i + 1
		case s[i] == 0xc2 && i+1 < len(s) && s[i+1] == 0x9c:
			return i + 2
		}
	}
	return len(s)
}

// escTail is the length of a plain ESC sequence: ESC, intermediates
// (0x20–0x2F), and one final byte (0x30–0x7E). Anything else after ESC is
// left as text (only the ESC goes).
func escTail(s string) int {
	i := 1
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2F {
		i++
	}
	if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7E {
		return i + 1
	}
	return 1
}
