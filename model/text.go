package model

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxDescriptionLen caps tool descriptions and server instructions (SPEC §4):
// a hostile server must not flood the screen or a model's context.
const MaxDescriptionLen = 2048

// TruncatedSuffix marks text that Truncate shortened.
const TruncatedSuffix = "... [truncated]"

// Sanitize removes characters a server could use to disguise text: C0/C1
// control characters (except newline and tab), bidirectional overrides and
// isolates, zero-width characters and the BOM. Invalid UTF-8 becomes U+FFFD.
func Sanitize(s string) string {
	clean := true
	for _, r := range s {
		if dropRune(r) || r == utf8.RuneError {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s { // invalid bytes arrive here as utf8.RuneError
		if !dropRune(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// dropRune reports whether Sanitize removes r.
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
		r == 0x2060, r == 0xFEFF:   // word joiner, BOM
		return true
	}
	return false
}

// Truncate cuts s to at most max runes and appends TruncatedSuffix when it
// did (the result is then max runes plus the suffix, as in the reference). It
// never splits a UTF-8 sequence. A negative max counts as zero.
func Truncate(s string, max int) string {
	if max < 0 {
		max = 0
	}
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	i, n := 0, 0
	for i < len(s) && n < max {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		n++
	}
	return s[:i] + TruncatedSuffix
}
