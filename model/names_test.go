package model

import (
	"strings"
	"testing"
)

func TestNormalizeName(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"github", "github"},
		{"my-server_2", "my-server_2"},
		{"my.server", "my_server"},
		{"with space", "with_space"},
		{"émoji🙂", "_moji_"},
		{"a/b:c", "a_b_c"},
		{"", ""},
	} {
		if got := NormalizeName(tc.in); got != tc.want {
			t.Errorf("NormalizeName(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestToolName(t *testing.T) {
	if got := ToolName("git hub", "create.issue"); got != "mcp__git_hub__create_issue" {
		t.Errorf("got %q", got)
	}
	long1 := ToolName("server", strings.Repeat("x", 80)+"a")
	long2 := ToolName("server", strings.Repeat("x", 80)+"b")
	for _, n := range []string{long1, long2} {
		if len(n) != maxToolNameLen {
			t.Errorf("len(%q) = %d, want %d", n, len(n), maxToolNameLen)
		}
		if !strings.HasPrefix(n, "mcp__server__xxx") {
			t.Errorf("%q lost its prefix", n)
		}
	}
	if long1 == long2 {
		t.Errorf("long names sharing a prefix collide: %q", long1)
	}
	if again := ToolName("server", strings.Repeat("x", 80)+"a"); again != long1 {
		t.Errorf("not deterministic: %q vs %q", again, long1)
	}
	tool := strings.Repeat("y", maxToolNameLen-len("mcp__s__"))
	if exact := ToolName("s", tool); exact != "mcp__s__"+tool {
		t.Errorf("a name of exactly 64 chars must be kept, got %q", exact)
	}
}

// TestServeName: SERVER__TOOL, normalized and cut at 64 like ToolName, and
// two names meet exactly when their ToolName meet.
func TestServeName(t *testing.T) {
	if got := ServeName("git hub", "create.issue"); got != "git_hub__create_issue" {
		t.Errorf("got %q", got)
	}
	long := ServeName("server", strings.Repeat("x", 80))
	if len(long) != maxToolNameLen || !strings.HasPrefix(long, "server__xxx") {
		t.Errorf("long name %q (%d chars)", long, len(long))
	}
	if a, b := ServeName("server", strings.Repeat("x", 80)+"a"), ServeName("server", strings.Repeat("x", 80)+"b"); a == b {
		t.Errorf("long names sharing a prefix collide: %q", a)
	}
	exact := strings.Repeat("y", maxToolNameLen-len("s__"))
	if got := ServeName("s", exact); got != "s__"+exact {
		t.Errorf("a name of exactly 64 chars must be kept, got %q", got)
	}
	if ServeName("a", "b__c") != ServeName("a__b", "c") || ToolName("a", "b__c") != ToolName("a__b", "c") {
		t.Error("a/b__c and a__b/c must meet in both forms")
	}
}

func TestCheckServerName(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{{"github", true}, {"my.server", true}, {"", false}, {"  ", false}, {"all", false}, {"a\x00b", false}, {"bad\xff", false}} {
		err := CheckServerName(tc.name)
		if (err == nil) != tc.ok {
			t.Errorf("CheckServerName(%q) = %v, want ok=%v", tc.name, err, tc.ok)
		}
	}
}
