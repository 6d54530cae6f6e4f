package model

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// FuzzExpand: no panic; text without "${" is untouched; with every variable
// set (to "") nothing is missing and the result never grows.
func FuzzExpand(f *testing.F) {
	for _, s := range []string{"${A}", "${A:-d}", "$$", "$", "$${A}", "${", "${1}", "a${B}c${C:-x}", "${A:-${B}}", "é${A}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		none := func(string) (string, bool) { return "", false }
		out, missing := Expand(s, none)
		if !strings.Contains(s, "${") && (out != s || missing != nil) {
			t.Fatalf("Expand(%q) = %q %v without any ${", s, out, missing)
		}
		for _, m := range missing {
			if !strings.HasPrefix(m, "${") || !strings.HasSuffix(m, "}") || !validVarName(m[2:len(m)-1]) {
				t.Fatalf("bad missing entry %q", m)
			}
		}
		empty := func(string) (string, bool) { return "", true }
		out2, missing2 := Expand(s, empty)
		if len(missing2) != 0 || len(out2) > len(s) {
			t.Fatalf("Expand(%q) with all set = %q %v", s, out2, missing2)
		}
	})
}

// FuzzNormalize: names come out in the tool-name alphabet, one character per
// input character, idempotent; tool names respect the 64-char limit; Sanitize
// and Truncate keep text valid.
func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"github", "my.server", "a b/c", "émoji🙂", "\x00\xff", strings.Repeat("x", 100), "mcp__a__b", "\u202Eevil"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := NormalizeName(s)
		for _, r := range n {
			if r != '_' && r != '-' && (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && (r < '0' || r > '9') {
				t.Fatalf("NormalizeName(%q) = %q has %q", s, n, r)
			}
		}
		if len(n) != utf8.RuneCountInString(s) || NormalizeName(n) != n {
			t.Fatalf("NormalizeName(%q) = %q: not one char per rune or not idempotent", s, n)
		}
		tn := ToolName(s, s)
		if len(tn) > maxToolNameLen || NormalizeName(tn) != tn || tn != ToolName(s, s) {
			t.Fatalf("ToolName(%q) = %q", s, tn)
		}
		clean := textsafe.Sanitize(s)
		if !utf8.ValidString(clean) || textsafe.Sanitize(clean) != clean {
			t.Fatalf("Sanitize(%q) = %q: invalid or not idempotent", s, clean)
		}
		for _, r := range clean {
			if r != '\n' && r != '\t' && textsafe.HiddenRune(r) {
				t.Fatalf("Sanitize(%q) kept %q", s, r)
			}
		}
		if tr := textsafe.Truncate(clean, 10); !utf8.ValidString(tr) {
			t.Fatalf("Truncate broke UTF-8: %q", tr)
		}
	})
}
