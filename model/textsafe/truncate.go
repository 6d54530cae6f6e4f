package textsafe

import (
	"unicode/utf8"
)

// TruncatedSuffix marks text that Truncate shortened.
const TruncatedSuffix = "... [truncated]"

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

// Clip cuts s to at most n runes for one line of a screen or a sentence,
// its last rune "…" when it cut (Truncate instead keeps max runes and
// appends TruncatedSuffix). It never splits a UTF-8 sequence; n below 1
// leaves nothing.
func Clip(s string, n int) string {
	if n < 1 {
		return ""
	}
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
