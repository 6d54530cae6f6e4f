package model

import "unicode"

// HiddenRune reports whether r is a character a terminal does not show as
// itself, so that text holding it can look like other text: every C0/C1
// control (Cc), every format character (Cf: soft hyphen, bidi marks,
// overrides and isolates, zero-width space, joiners, word joiner, the
// invisible operators U+2061–2064, U+180E, the BOM, the interlinear
// annotation marks, tag characters), the line and paragraph separators
// U+2028 and U+2029 (Zl, Zp: not line breaks to a terminal), and what
// Unicode lists as Other_Default_Ignorable_Code_Point (the Hangul fillers
// U+115F, U+1160, U+3164, U+FFA0, the combining grapheme joiner, and the
// reserved rest of the tag block). It is the one set: Sanitize removes
// these characters (newline and tab excepted), Escape and EscapeJSON show
// them as escapes, and a server name or a registry's server.json holding
// one is refused. Newline and tab belong to it; the callers that keep them
// say so.
func HiddenRune(r rune) bool {
	if r < 0x80 {
		return r < 0x20 || r == 0x7F
	}
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp, unicode.Other_Default_Ignorable_Code_Point)
}

// FirstHidden returns the first HiddenRune in s, for refusing text that
// must hold none (a server name, a registry's server.json), so that the
// refusal can name it.
func FirstHidden(s string) (rune, bool) {
	for _, r := range s {
		if HiddenRune(r) {
			return r, true
		}
	}
	return 0, false
}
