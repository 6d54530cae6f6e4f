package policy

import (
	"testing"
)

func TestPermissionsCheck(t *testing.T) {
	p := Permissions{
		Allow: []string{"mcp__github__search_code", "mcp__slack__*", "mcp__fs", "mcp__my.server__read"},
		Deny:  []string{"mcp__untrusted__*", "mcp__slack__delete_all"},
	}
	for _, tc := range []struct {
		tool    string
		allowed bool
		rule    string
	}{
		{"mcp__github__search_code", true, "allow: mcp__github__search_code"},
		{"mcp__github__delete_repo", false, ""},
		{"mcp__slack__post", true, "allow: mcp__slack__*"},
		{"mcp__slack__delete_all", false, "deny: mcp__slack__delete_all"},
		{"mcp__untrusted__anything", false, "deny: mcp__untrusted__*"},
		{"mcp__fs__read_file", true, "allow: mcp__fs"},
		{"mcp__fsx__read_file", false, ""},
		{"mcp__my_server__read", true, "allow: mcp__my.server__read"},
		{"mcp__slack__", false, ""},
	} {
		allowed, rule := p.Check(tc.tool)
		if allowed != tc.allowed || rule != tc.rule {
			t.Errorf("Check(%q) = %v %q, want %v %q", tc.tool, allowed, rule, tc.allowed, tc.rule)
		}
	}
	// Deny wins even when an allow rule is more specific.
	both := Permissions{Allow: []string{"mcp__a__b"}, Deny: []string{"mcp__a__*"}}
	if ok, rule := both.Check("mcp__a__b"); ok || rule != "deny: mcp__a__*" {
		t.Errorf("deny must win, got %v %q", ok, rule)
	}
}
