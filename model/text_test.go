package model

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSanitize(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text", "plain text"},
		{"keep\nnew\tlines", "keep\nnew\tlines"},
		{"bell\x07 esc\x1b[31m red", "bell esc[31m red"},
		{"cr\rlf", "crlf"},
		{"rtl \u202Eevil\u202C override", "rtl evil override"},
		{"isolate \u2066x\u2069", "isolate x"},
		{"zero\u200Bwidth\uFEFF", "zerowidth"},
		{"c1 \u0085 next", "c1  next"},
		{"bad \xff utf8", "bad \uFFFD utf8"},
		{"日本語 ok", "日本語 ok"},
	} {
		if got := Sanitize(tc.in); got != tc.want {
			t.Errorf("Sanitize(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestTruncate(t *testing.T) {
	long := strings.Repeat("é", 3000)
	got := Truncate(long, MaxDescriptionLen)
	if !strings.HasSuffix(got, TruncatedSuffix) || !utf8.ValidString(got) {
		t.Fatalf("bad truncation: %q...", got[:20])
	}
	if n := utf8.RuneCountInString(strings.TrimSuffix(got, TruncatedSuffix)); n != MaxDescriptionLen {
		t.Errorf("kept %d runes, want %d", n, MaxDescriptionLen)
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
