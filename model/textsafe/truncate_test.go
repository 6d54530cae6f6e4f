package textsafe

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTruncate(t *testing.T) {
	const maxDescriptionLen = 2048 // the engine's cap on descriptions
	long := strings.Repeat("é", 3000)
	got := Truncate(long, maxDescriptionLen)
	if !strings.HasSuffix(got, TruncatedSuffix) || !utf8.ValidString(got) {
		t.Fatalf("bad truncation: %q...", got[:20])
	}
	if n := utf8.RuneCountInString(strings.TrimSuffix(got, TruncatedSuffix)); n != maxDescriptionLen {
		t.Errorf("kept %d runes, want %d", n, maxDescriptionLen)
	}
	for _, tc := range []struct {
		in   string
		max  int
		want string
	}{
		{"short", 10, "short"},
		{"exactly", 7, "exactly"},
		{"abcdef", 3, "abc" + TruncatedSuffix},
		{"abc", -1, TruncatedSuffix},
		{"", 0, ""},
	} {
		if got := Truncate(tc.in, tc.max); got != tc.want {
			t.Errorf("Truncate(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
		}
	}
}

// TestClip: at most n runes, the last an ellipsis when cut, never half a
// rune.
func TestClip(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly", 7, "exactly"},
		{"abcdef", 3, "ab…"},
		{"ééééé", 4, "ééé…"},
		{"ab", 1, "…"},
		{"abc", 0, ""},
		{"", 0, ""},
	} {
		if got := Clip(tc.in, tc.n); got != tc.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}
