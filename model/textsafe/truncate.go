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
