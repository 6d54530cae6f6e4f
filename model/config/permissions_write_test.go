package config

import (
	"strings"
	"testing"
)

// TestSetToolDenied: a deny rule for one tool is written to the private
// state, applies on the next load, and is removed again; other rules and
// settings are kept.
func TestSetToolDenied(t *testing.T) {
	f := newFixture(t)
	f.write(f.userFile(), servers("gh", `{"command":"x"}`))
	f.write(f.localFile(), `{"permissions": {"allow": ["mcp__gh__*"], "deny": ["mcp__other__*"]}, "keep": 1}`)
	opts := f.opts()
	if err := SetToolDenied(opts, "mcp__gh__create_issue", true); err != nil {
		t.Fatal(err)
	}
	r := f.load()
	if ok, rule := r.Permissions.Check("mcp__gh__create_issue"); ok || rule != "deny: mcp__gh__create_issue" {
		t.Fatalf("after deny: %v %q", ok, rule)
	}
	if ok, _ := r.Permissions.Check("mcp__gh__search"); !ok {
		t.Fatal("another tool of the server was denied too")
	}
	if err := SetToolDenied(opts, "mcp__gh__create_issue", false); err != nil {
		t.Fatal(err)
	}
	if ok, _ := f.load().Permissions.Check("mcp__gh__create_issue"); !ok {
		t.Fatal("still denied after removing the rule")
	}
	got := f.read(f.localFile())
	if !strings.Contains(got, `"mcp__other__*"`) || !strings.Contains(got, `"keep": 1`) || !strings.Contains(got, `"allow": ["mcp__gh__*"]`) {
		t.Fatalf("other settings lost:\n%s", got)
	}
}
