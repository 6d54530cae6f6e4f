package textsafe

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSanitizeStyled(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain\nlines", "plain\nlines"},
		{"\x1b[1;38;5;212mtitle\x1b[0m", "\x1b[1;38;5;212mtitle\x1b[0m"},
		{"\x1b[31mred \x1b]52;c;ZXZpbA==\x07after\x1b[0m", "\x1b[31mred after\x1b[0m"},
		{"\x1b[2Kerase \x1b[1Aup\rcr", "erase upcr"},
		{"open \x1b]0;title\nnext line", "open \nnext line"},
		{"osc around sgr \x1b]52;c;\x1b[0mtail\x07.", "osc around sgr \x1b[0mtail."},
		{"rtl \u202Eevil\u202C \U000E0041 \u009b31m", "rtl evil  "},
		{"lone \x1b", "lone "},
		{"csi-ish \x1b[12", "csi-ish "},
	} {
		if got := SanitizeStyled(tc.in); got != tc.want {
			t.Errorf("SanitizeStyled(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestEscapeJSON(t *testing.T) {
	v := map[string]string{"k\u202E": "rtl \u202E c1 \u0085\u009b del \x7f tag \U000E0041 bom \uFEFF nl \n ok é"}
	raw, err := json.MarshalIndent(v, "", "\t")
	if err != nil {
		t.Fatal(err)
	}
	got := EscapeJSON(raw)
	want := "{\n\t\"k\\u202e\": \"rtl \\u202e c1 \\u0085\\u009b del \\u007f tag \\udb40\\udc41 bom \\ufeff nl \\n ok é\"\n}"
	if string(got) != want {
		t.Fatalf("EscapeJSON = %s\nwant %s", got, want)
	}
	var back map[string]string
	if err := json.Unmarshal(got, &back); err != nil || back["k\u202E"] != v["k\u202E"] {
		t.Fatalf("round trip: %v %q", err, back)
	}
	if got := EscapeJSON([]byte("{\"a\":\"\xff\"}")); string(got) != `{"a":"\ufffd"}` {
		t.Fatalf("invalid UTF-8: %s", got)
	}
}

// FuzzSanitizeStyled: whatever the input, the only escape sequences left
// are SGR, nothing else Sanitize removes survives, and it is idempotent.
func FuzzSanitizeStyled(f *testing.F) {
	for _, s := range []string{"\x1b[31mred\x1b[0m", "\x1b]52;c;\x1b[0mx\x07", "\x1b[2K\r\n\x1b[1m", "\u009b31m\x1b[", "a\x1b[;:9m\U000E0041"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := SanitizeStyled(s)
		if SanitizeStyled(out) != out {
			t.Fatalf("not idempotent: %q -> %q -> %q", s, out, SanitizeStyled(out))
		}
		rest := out
		for rest != "" {
			start, end := nextSGR(rest)
			plain := rest[:start]
			if strings.ContainsRune(plain, 0x1b) || !utf8.ValidString(plain) {
				t.Fatalf("SanitizeStyled(%q) = %q keeps a non-SGR escape", s, out)
			}
			assertTerminalSafe(t, plain, true)
			rest = rest[end:]
		}
	})
}

// FuzzEscapeJSON: for any string, the escaped encoding is still valid JSON
// with the same value, and terminal-safe.
func FuzzEscapeJSON(f *testing.F) {
	for _, s := range []string{"plain", "\u202E\u0085\x7f", "\U000E0041\U0001F600", "\x1b]52;c;eA==\x07", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		raw, err := json.Marshal([]string{s})
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatal(err)
		}
		got := EscapeJSON(raw)
		var back []string
		if err := json.Unmarshal(got, &back); err != nil || len(back) != 1 || back[0] != want[0] {
			t.Fatalf("EscapeJSON(%s) = %s: %v %q, want %q", raw, got, err, back, want)
		}
		assertTerminalSafe(t, string(got), true)
	})
}
