package tuikit

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// TestWrapKeepsWordsWhole: a word that fits on a line moves to the next
// one whole, hyphens included; a word wider than a line breaks after a
// separator; indentation stays and styles pass through.
func TestWrapKeepsWordsWhole(t *testing.T) {
	for _, tc := range []struct {
		in    string
		width int
		want  string
	}{
		{
			"Server mcp-servers/everything 2.0.0 · protocol 2025-11-25", 49,
			"Server mcp-servers/everything 2.0.0 · protocol\n2025-11-25",
		},
		{"aa get-structured-content bb", 20, "aa\nget-structured-\ncontent bb"},
		{
			"/work/main/testdata/npm/node_modules/.bin/mcp-server-everything stdio", 49,
			"/work/main/testdata/npm/node_modules/.bin/\nmcp-server-everything stdio",
		},
		{"see /a/very/long/path/to/some/file.json now", 20, "see\n/a/very/long/path/\nto/some/file.json\nnow"},
		{"    indented words that wrap", 16, "    indented\nwords that wrap"},
		{"abcdefghijklmnopqrstuvwxyz", 10, "abcdefghij\nklmnopqrst\nuvwxyz"},
		{"short", 10, "short"},
		{"trailing   ", 8, "trailing"},
		{"\x1b[31mred words here\x1b[0m", 9, "\x1b[31mred words\nhere\x1b[0m"},
		{"漢字漢字漢字", 1, "漢\n字\n漢\n字\n漢\n字"},
		{"a\nb c d e", 3, "a\nb c\nd e"},
	} {
		if got := Wrap(tc.in, tc.width); got != tc.want {
			t.Errorf("Wrap(%q, %d)\n got %q\nwant %q", tc.in, tc.width, got, tc.want)
		}
	}
}

// FuzzWrap: every line fits (a wide character alone excepted), and no
// text but the spaces where lines break is lost or reordered.
func FuzzWrap(f *testing.F) {
	for _, s := range []string{"a b-c d", "  x /y/z/w ", "漢字 abc-def", "\x1b[1mbold\x1b[0m text", "a\n\nb", "漢", " 👍\u0301/ｗ-x"} {
		f.Add(s, 5)
	}
	f.Fuzz(func(t *testing.T, s string, width int) {
		if width < 2 || width > 200 || strings.ContainsAny(s, "\x1b\t\r") || !utf8.ValidString(s) { // sanitized text only
			return
		}
		got := Wrap(s, width)
		for _, l := range strings.Split(got, "\n") {
			if w := ansi.StringWidth(l); w > width && ansi.StringWidth(s) >= w {
				t.Fatalf("line %q is %d wide, over %d", l, w, width)
			}
		}
		squeeze := func(x string) string { return strings.Join(strings.Fields(strings.ReplaceAll(x, "\n", " ")), "") }
		if squeeze(got) != squeeze(s) {
			t.Fatalf("Wrap(%q, %d) = %q changed the text", s, width, got)
		}
	})
}
