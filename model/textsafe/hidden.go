package textsafe

import (
	"cmp"
	"slices"
	"unicode"
)

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
	lo, hi := 0, len(hiddenRanges)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		switch rg := hiddenRanges[m]; {
		case r < rg.lo:
			hi = m
		case r > rg.hi:
			lo = m + 1
		default:
			return true
		}
	}
	return false
}

// hiddenRanges is the union of the classes HiddenRune names as sorted,
// disjoint ranges, built once and never changed: the TUI checks every
// character of every frame, and one search is several times quicker than
// one per class.
var hiddenRanges = unionOf(unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp, unicode.Other_Default_Ignorable_Code_Point)

// runeRange is the characters lo to hi, both included.
type runeRange struct{ lo, hi rune }

// unionOf merges tables into sorted, disjoint ranges.
func unionOf(tables ...*unicode.RangeTable) []runeRange {
	var rs []runeRange
	add := func(lo, hi, stride rune) {
		for r := lo; stride > 1 && r <= hi; r += stride {
			rs = append(rs, runeRange{r, r})
		}
		if stride == 1 {
			rs = append(rs, runeRange{lo, hi})
		}
	}
	for _, t := range tables {
		for _, r := range t.R16 {
			add(rune(r.Lo), rune(r.Hi), rune(r.Stride))
		}
		for _, r := range t.R32 {
			add(rune(r.Lo), rune(r.Hi), rune(r.Stride))
		}
	}
	slices.SortFunc(rs, func(a, b runeRange) int { return cmp.Compare(a.lo, b.lo) })
	out := rs[:0]
	for _, r := range rs {
		if n := len(out); n > 0 && r.lo <= out[n-1].hi+1 {
			out[n-1].hi = max(out[n-1].hi, r.hi)
			continue
		}
		out = append(out, r)
	}
	return out
}

// LookAlikeRune reports whether r is text Sanitize keeps (an emoji's
// U+FE0F, a no-break space in a description) but that lets one value read
// as another where the person must see it exactly, so Escape shows it
// escaped: a space other than U+0020 (Zs: no-break, en, em, thin and
// ideographic spaces, the Ogham space mark; a trailing one is invisible
// and none makes QuoteArg quote its word), the Braille blank U+2800 (a
// blank cell), and a variation selector (invisible after a character
// that has no variant to select: server-filesystem followed by U+FE0F
// reads as server-filesystem).
func LookAlikeRune(r rune) bool {
	if r < 0x80 {
		return false
	}
	return r == 0x2800 || unicode.Is(unicode.Zs, r) || unicode.Is(unicode.Variation_Selector, r)
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
