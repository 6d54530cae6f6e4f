package textsafe

import (
	"testing"
)

func TestQuoteArg(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"":              "''",
		"plain":         "plain",
		"--flag=x":      "--flag=x",
		"two words":     "'two words'",
		"it's":          `'it'\''s'`,
		"a\\b":          `'a\b'`,
		"\r":            `$'\r'`,
		"back\\sl\x1b'": `$'back\\sl\x1b\''`,
		"\xff":          `$'\xff'`,
		"\U000e0041":    `$'\U000e0041'`,
	}
	for in, want := range tests {
		if got := QuoteArg(in); got != want {
			t.Errorf("QuoteArg(%q) = %q, want %q", in, got, want)
		}
	}
}
