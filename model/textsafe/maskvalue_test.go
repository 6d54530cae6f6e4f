package textsafe

import (
	"testing"
)

func TestRedactValue(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"":                           "",
		"literal-secret":             Masked,
		"${TOKEN}":                   "${TOKEN}",
		"Bearer ${API_TOKEN}":        "Bearer ${API_TOKEN}",
		"basic ${A}${B}":             "basic ${A}${B}",
		"Token ${T}":                 "Token ${T}",
		"${HOST:-localhost}":         "${HOST:-localhost}",
		"Bearer hardcoded":           Masked,
		"Bearer x":                   Masked,
		"prefix-${VAR}-suffix":       Masked,
		"Bearer ${TOKEN} sk-live123": Masked,
		"$TOKEN":                     Masked,
	}
	for in, want := range tests {
		if got := MaskWritten(in); got != want {
			t.Errorf("redactValue(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestIsLiteralSecret(t *testing.T) {
	for _, c := range []struct {
		key, value string
		want       bool
	}{
		{"TOKEN", "abc123", true},
		{"GITHUB_TOKEN", "${GITHUB_TOKEN}", false},
		{"Authorization", "Bearer ${API_TOKEN}", false},
		{"Authorization", "Bearer abc", true},
		{"X-Api-Key", "k", true},
		{"DB_PASSWORD", "hunter2", true},
		{"DEBUG", "1", false},
		{"NODE_ENV", "production", false},
		{"CONFIG", "/usr/local/share/config.json", false},
		{"OPENAI", "sk-proj0123456789abcdefABCDEF", true},
		{"X-Custom", "Bearer 0123456789abcdefghij0123", true},
		{"TOKEN", "", false},
		{"TOKEN", "prefix-${T}", true},
	} {
		if got := IsLiteralSecret(c.key, c.value); got != c.want {
			t.Errorf("IsLiteralSecret(%q, %q) = %v, want %v", c.key, c.value, got, c.want)
		}
	}
}
