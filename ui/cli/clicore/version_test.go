package clicore

import (
	"runtime/debug"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

func TestVersionText(t *testing.T) {
	git := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.3.0"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "4cab356f0e1d2c3b4a5968778695a4b3c2d1e0f9"},
		{Key: "vcs.time", Value: "2026-11-23T22:50:00Z"},
		{Key: "vcs.modified", Value: "true"},
	}}
	for _, tc := range []struct {
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{git, true, "v0.3.0 (commit 4cab356f0e1d, 2026-11-23T22:50:00Z, with uncommitted changes) go1.26.8"},
		{&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.3.0"}}, true, "v0.3.0 go1.26.8"},
		{&debug.BuildInfo{GoVersion: "go1.26.8"}, true, "(devel) go1.26.8"},
		{nil, false, "unknown (built without module information)"},
	} {
		if got := versionText(tc.info, tc.ok); got != tc.want {
			t.Errorf("versionText = %q, want %q", got, tc.want)
		}
	}
}

func TestVersionFlag(t *testing.T) {
	e := clitest.NewEnv(t)
	r := e.OK("--version")
	if !strings.HasPrefix(r.Stdout, "mcpdeck ") || !strings.Contains(r.Stdout, "go1.") || r.Stderr != "" {
		t.Errorf("--version: %s", r)
	}
}

func TestMistypedCommandsAreSuggested(t *testing.T) {
	e := clitest.NewEnv(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"mcp", "lst"}, `did you mean "list"?`},
		{[]string{"tols"}, `did you mean "tools"?`},
		{[]string{"promts"}, `did you mean "prompts"?`},
		{[]string{"mcp", "aprove"}, `did you mean "approve"?`},
	} {
		r := e.Fails(2, tc.args...)
		if !strings.Contains(r.Stderr, tc.want) {
			t.Errorf("mcpdeck %v: want %q in %s", tc.args, tc.want, r)
		}
	}
}
