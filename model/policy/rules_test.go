package policy

import (
	"strings"
	"testing"
)

func TestGlobMatch(t *testing.T) {
	for _, tc := range []struct {
		pat, s string
		want   bool
	}{
		{"https://*.company.com/*", "https://api.company.com/mcp", true},
		{"https://*.company.com/*", "https://company.com/mcp", false},
		{"*", "", true},
		{"a*b*c", "aXbYc", true},
		{"a*b*c", "aXbY", false},
		{"exact", "exact", true},
		{"exact", "exactly", false},
		{strings.Repeat("*a", 30) + "b", strings.Repeat("a", 100), false},
	} {
		if got := globMatch(tc.pat, tc.s); got != tc.want {
			t.Errorf("globMatch(%q, %q) = %v, want %v", tc.pat, tc.s, got, tc.want)
		}
	}
}
