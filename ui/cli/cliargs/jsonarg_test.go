package cliargs

import (
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// TestJSONArgumentsFromStdin: "-" reads a call's or a prompt's arguments
// from stdin, so they need no shell quoting.
func TestJSONArgumentsFromStdin(t *testing.T) {
	e := clitest.NewEnv(t)
	cfg := clitest.EngServers(t, nil)
	r := e.RunStdin(`{"op":"add","a":2,"b":40}`, "--mcp-config", cfg, "call", "calc", "calculate", "-")
	if r.Code != 0 || !strings.Contains(r.Stdout, "42") {
		t.Errorf("call … - with arguments on stdin: %s", r)
	}
	r = e.RunStdin(`{"expression":"6*7"}`, "--mcp-config", cfg, "prompt", "calc", "explain", "-")
	if r.Code != 0 || !strings.Contains(r.Stdout, "Explain step by step: 6*7") {
		t.Errorf("prompt … - with arguments on stdin: %s", r)
	}
}

// TestBadJSONArgumentsAreUsageErrors: a wrong JSON argument exits 2 with a
// sentence about the text given, never Go's decoder internals.
func TestBadJSONArgumentsAreUsageErrors(t *testing.T) {
	e := clitest.NewEnv(t)
	for _, tc := range []struct {
		args  []string
		stdin string
		want  string
	}{
		{[]string{"call", "x", "y", "[1, 2]"}, "", "got an array, want an object"},
		{[]string{"call", "x", "y", `"text"`}, "", "got a string, want an object"},
		{[]string{"call", "x", "y", `{"a": 1,}`}, "", "invalid JSON at character 9"},
		{[]string{"call", "x", "y", `{"a": 1`}, "", "the JSON ends too early"},
		{[]string{"call", "x", "y", "-"}, "", "nothing was given"},
		{[]string{"prompt", "x", "y", "-"}, "[]", "got an array, want an object"},
		{[]string{"prompt", "x", "y", "null"}, "", "got null, want an object"},
	} {
		r := e.RunStdin(tc.stdin, tc.args...)
		if r.Code != 2 || !strings.Contains(r.Stderr, tc.want) || strings.Contains(r.Stderr, "Go value") || strings.Contains(r.Stderr, "interface {}") {
			t.Errorf("%v: want exit 2 and %q, got %s", tc.args, tc.want, r)
		}
	}
}
