package textsafe

import (
	"strconv"
	"strings"
	"testing"
)

func TestSanitize(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text", "plain text"},
		{"keep\nnew\tlines", "keep\nnew\tlines"},
		{"bell\x07 esc\x1b[31m red", "bell esc red"},
		{"cr\rlf", "crlf"},
		{"erase\x1b[2Kline", "eraseline"},
		{"clip \x1b]52;c;ZXZpbA==\x07after", "clip after"},
		{"title \x1b]0;pwned\x1b\\after", "title after"},
		{"dcs \x1bPq#0;2;0;0;0\x1b\\after", "dcs after"},
		{"apc \x1b_Gf=100;AAAA\x1b\\after", "apc after"},
		{"pm \x1b^secret\x1b\\ sos \x1bXx\x1b\\.", "pm  sos ."},
		{"c1 csi \u009b31mred", "c1 csi red"},
		{"c1 osc \u009d52;c;eA==\u009cafter", "c1 osc after"},
		{"unterminated \x1b]52;c;ZXZpbA==", "unterminated "},
		{"charset \x1b(Btext \x1b7save", "charset text save"},
		{"lone esc\x1b", "lone esc"},
		{"broken csi \x1b[12\x00x", "broken csi x"},
		{"rtl \u202Eevil\u202C override", "rtl evil override"},
		{"isolate \u2066x\u2069", "isolate x"},
		{"zero\u200Bwidth\uFEFF", "zerowidth"},
		{"tags \U000E0041\U000E0042\U000E007F.", "tags ."},
		{"c1 \u0085 next", "c1  next"},
		{"bad \xff utf8", "bad \uFFFD utf8"},
		{"日本語 ok ─│┌", "日本語 ok ─│┌"},
	} {
		if got := Sanitize(tc.in); got != tc.want {
			t.Errorf("Sanitize(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestSanitizeLine(t *testing.T) {
	if got := SanitizeLine("a\nb\tc\r\x1b[1Ad"); got != "a b cd" {
		t.Errorf("SanitizeLine = %q", got)
	}
	if got := SanitizeLine("plain"); got != "plain" {
		t.Errorf("SanitizeLine(plain) = %q", got)
	}
}

func TestEscape(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"--flag=value", "--flag=value"},
		{"C:\\path\\x", "C:\\path\\x"},
		{"a\rb", `a\rb`},
		{"\x1b[2Kgone", `\x1b[2Kgone`},
		{"line1\nline2\tx", `line1\nline2\tx`},
		{"osc \x1b]52;c;eA==\x07", `osc \x1b]52;c;eA==\x07`},
		{"rtl \u202Etxt.exe", `rtl \u202etxt.exe`},
		{"tag \U000E0041", `tag \U000e0041`},
		{"c1 \u009b", `c1 \u009b`},
		{"bad \xff", `bad \xff`},
		{"box ─│", "box ─│"},
	} {
		if got := Escape(tc.in); got != tc.want {
			t.Errorf("Escape(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestSanitizeTerminalSafe is the structural promise: whatever goes in,
// nothing below 0x20 but newline and tab, no DEL, no C1, and no ESC comes
// out of Sanitize, and nothing below 0x20 at all out of Escape.
func TestSanitizeTerminalSafe(t *testing.T) {
	var all strings.Builder
	for r := rune(0); r < 0x250; r++ {
		all.WriteRune(r)
		all.WriteString("x")
	}
	all.WriteString("\U000E0001\U000E0020\U000E007F\u202E\u2066\xff\xc2")
	in := all.String()
	for _, out := range []string{Sanitize(in), SanitizeLine(in)} {
		assertTerminalSafe(t, out, true)
	}
	assertTerminalSafe(t, Escape(in), false)
}

// assertTerminalSafe fails when out holds a HiddenRune (newline and tab
// allowed when allowNL).
func assertTerminalSafe(t *testing.T, out string, allowNL bool) {
	t.Helper()
	for _, r := range out {
		if (r == '\n' || r == '\t') && allowNL {
			continue
		}
		if HiddenRune(r) {
			t.Fatalf("output keeps %U: %q", r, out)
		}
	}
}

// FuzzSanitize: Sanitize and SanitizeLine are terminal-safe (no HiddenRune
// but newline and tab) and idempotent; Escape is terminal-safe, leaves
// clean text alone, and loses nothing: read back as a Go string it is the
// input again, so what the person sees is exactly what runs.
func FuzzSanitize(f *testing.F) {
	for _, s := range []string{"plain", "\x1b]52;c;eA==\x07", "\x1b[2K\r", "\u009b31m", "\x1bP\x1b", "\U000E0041\u202E", "\xff\xc2\x9b", "a\nb\tc", "server-filesystem\u2064", "\u00ad\u180e\ufff9\u3164\u2028"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		clean := Sanitize(s)
		if Sanitize(clean) != clean {
			t.Fatalf("Sanitize not idempotent: %q -> %q -> %q", s, clean, Sanitize(clean))
		}
		assertTerminalSafe(t, clean, true)
		line := SanitizeLine(s)
		if strings.ContainsAny(line, "\n\t") {
			t.Fatalf("SanitizeLine(%q) = %q keeps a line break", s, line)
		}
		assertTerminalSafe(t, line, false)
		esc := Escape(s)
		assertTerminalSafe(t, esc, false)
		if isClean(s, false) && esc != s {
			t.Fatalf("Escape changed clean text %q to %q", s, esc)
		}
		if !strings.ContainsAny(s, `"\`) {
			if back, err := strconv.Unquote(`"` + esc + `"`); err != nil || back != s {
				t.Fatalf("Escape(%q) = %q reads back as %q (%v)", s, esc, back, err)
			}
		}
	})
}
