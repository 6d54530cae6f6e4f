package engcmd

import (
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// TestMistypedNamesGetADidYouMean: a server, tool, prompt or resource name
// one or two edits from a listed one is named in the error, as cobra does
// for subcommands; exit 1 as before.
func TestMistypedNamesGetADidYouMean(t *testing.T) {
	e := clitest.NewEnv(t)
	cfg := weatherServers(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"call", "calx", "calculate"}, `no server named "calx" (configured: calc, notes, survey, weather); did you mean "calc"?`},
		{[]string{"tools", "wether"}, `did you mean "weather"?`},
		{[]string{"call", "calc", "calculat"}, `server calc has no tool "calculat"; did you mean "calculate"?`},
		{[]string{"prompt", "calc", "explian", "expression=1"}, `did you mean "explain"?`},
		{[]string{"read", "weather", "weather://citys"}, `did you mean "weather://cities"?`},
	} {
		r := e.Fails(1, append([]string{"--mcp-config", cfg}, tc.args...)...)
		if !strings.Contains(r.Stderr, tc.want) {
			t.Errorf("%q: want %q, got %s", tc.args, tc.want, r)
		}
	}
	// the tool's line is one sentence: no "call X on S: no such tool:" before it
	r := e.Fails(1, "--mcp-config", cfg, "call", "calc", "calculat")
	if want := "mcpdeck: server calc has no tool \"calculat\"; did you mean \"calculate\"?\n"; r.Stderr != want {
		t.Errorf("a mistyped tool: stderr %q, want %q", r.Stderr, want)
	}
	// nothing close: no guess
	r = e.Fails(1, "--mcp-config", cfg, "call", "calc", "zzzzzzzz")
	if strings.Contains(r.Stderr, "did you mean") {
		t.Errorf("a name close to nothing got a suggestion: %s", r)
	}
	// batch names them too
	r = e.RunStdin(`{"tool": "calculat"}`+"\n", "--mcp-config", cfg, "batch", "calc")
	if r.Code != 1 || !strings.Contains(r.Stdout, `1: error: server calc has no tool "calculat"; did you mean "calculate"?`) {
		t.Errorf("batch with a mistyped tool: %s", r)
	}
}
