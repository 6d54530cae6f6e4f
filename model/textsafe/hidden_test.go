package textsafe_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// hiddenCases are characters a terminal shows as nothing (or not as
// themselves) that once passed the sanitizer, and some it always caught.
var hiddenCases = []rune{
	0x00AD,                         // soft hyphen
	0x2061, 0x2062, 0x2063, 0x2064, // invisible operators
	0x180E,                 // Mongolian vowel separator
	0xFFF9, 0xFFFA, 0xFFFB, // interlinear annotation marks
	0x115F, 0x1160, 0x3164, 0xFFA0, // Hangul fillers
	0x2028, 0x2029, // line and paragraph separators
	0x034F, // combining grapheme joiner
	0x202E, 0x2066, 0x200B, 0x200D, 0xFEFF, 0xE0041, 0xE0000, 0x0085,
}

// escaped is how Escape shows r.
func escaped(r rune) string {
	if r > 0xFFFF {
		return fmt.Sprintf(`\U%08x`, r)
	}
	return fmt.Sprintf(`\u%04x`, r)
}

// TestHiddenRunesInEveryFunction: each character of the one set is removed
// by Sanitize, SanitizeLine and SanitizeStyled, shown escaped by Escape and
// EscapeJSON, and refused in a server name.
func TestHiddenRunesInEveryFunction(t *testing.T) {
	for _, r := range hiddenCases {
		t.Run(fmt.Sprintf("%U", r), func(t *testing.T) {
			in := "server-filesystem" + string(r) + "x"
			if !textsafe.HiddenRune(r) {
				t.Errorf("HiddenRune(%U) = false", r)
			}
			if got := textsafe.Sanitize(in); got != "server-filesystemx" {
				t.Errorf("Sanitize = %q", got)
			}
			if got := textsafe.SanitizeLine(in); got != "server-filesystemx" {
				t.Errorf("SanitizeLine = %q", got)
			}
			if got := textsafe.SanitizeStyled("\x1b[1m" + in + "\x1b[0m"); got != "\x1b[1mserver-filesystemx\x1b[0m" {
				t.Errorf("SanitizeStyled = %q", got)
			}
			if got, want := textsafe.Escape(in), "server-filesystem"+escaped(r)+"x"; got != want {
				t.Errorf("Escape = %q, want %q", got, want)
			}
			raw, err := json.Marshal(in)
			if err != nil {
				t.Fatal(err)
			}
			js := textsafe.EscapeJSON(raw)
			var back string
			if err := json.Unmarshal(js, &back); err != nil || back != in {
				t.Errorf("EscapeJSON = %s: %v %q", js, err, back)
			}
			if strings.ContainsRune(string(js), r) {
				t.Errorf("EscapeJSON kept %U raw: %s", r, js)
			}
			if err := model.CheckServerName("github" + string(r)); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%U", r)) {
				t.Errorf("CheckServerName: %v", err)
			}
		})
	}
}

// TestHiddenRuneCoversTheUnicodeClasses: the set is exactly the controls,
// format characters, line and paragraph separators and Unicode's other
// default-ignorable characters, whatever the merged ranges behind it; so
// ordinary text, spaces, box drawing and emoji are not in it.
func TestHiddenRuneCoversTheUnicodeClasses(t *testing.T) {
	t.Parallel()
	for r := rune(0); r <= unicode.MaxRune; r++ {
		want := unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp, unicode.Other_Default_Ignorable_Code_Point)
		if textsafe.HiddenRune(r) != want {
			t.Fatalf("HiddenRune(%U) = %v, want %v", r, !want, want)
		}
	}
	for _, r := range "aZ09 ~é日本語─│┌█€\u00A0\u3000🙂👍ΩЖשع" {
		if textsafe.HiddenRune(r) {
			t.Errorf("HiddenRune(%U) = true for a visible character", r)
		}
	}
}

// TestEscapeShowsLookAlikes: where the person must see a value exactly
// (the approval view, mcp get, a command line), a character Sanitize
// rightly keeps in running text but that makes one value read as another
// is shown escaped: a variation selector after a letter (invisible: it has
// no variant to select), a space other than U+0020 (a trailing one is
// invisible, and none made QuoteArg quote the word) and the Braille blank.
// Sanitize still keeps them: an emoji's U+FE0F and a French no-break space
// in a description are text.
func TestEscapeShowsLookAlikes(t *testing.T) {
	for _, r := range []rune{0xFE0F, 0xFE00, 0xE0100, 0x180B, 0x180F, 0x00A0, 0x2000, 0x200A, 0x202F, 0x205F, 0x3000, 0x1680, 0x2800} {
		t.Run(fmt.Sprintf("%U", r), func(t *testing.T) {
			arg := "server-filesystem" + string(r)
			if got, want := textsafe.Escape(arg), "server-filesystem"+escaped(r); got != want {
				t.Errorf("Escape = %q, want %q", got, want)
			}
			if got, want := textsafe.QuoteArg(arg), "$'server-filesystem"+escaped(r)+"'"; got != want {
				t.Errorf("QuoteArg = %q, want %q", got, want)
			}
			if textsafe.Sanitize(arg) != arg {
				t.Errorf("Sanitize removed %U, text it must keep", r)
			}
		})
	}
	for _, s := range []string{"plain server-filesystem", "box ─│ é 日本", "🙂"} {
		if textsafe.Escape(s) != s {
			t.Errorf("Escape(%q) = %q changed visible text", s, textsafe.Escape(s))
		}
	}
}
