package cliout

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// TestJSONErrorsAreJSON: under --json every failure, usage errors included,
// is one JSON object on stderr, so a script never parses prose.
func TestJSONErrorsAreJSON(t *testing.T) {
	e := clitest.NewEnv(t)
	for _, tc := range []struct {
		code      int
		args      []string
		wantError string
		wantUsage string
	}{
		{2, []string{"--json", "call", "x", "y", "[1]"}, "the tool arguments must be a JSON object", "mcpdeck call --help"},
		{1, []string{"--json", "mcp", "get", "nosuch"}, "nosuch", ""},
		{2, []string{"--json", "mcp", "lst"}, `did you mean "list"?`, "mcpdeck mcp --help"},
	} {
		r := e.Run(tc.args...)
		if r.Code != tc.code {
			t.Errorf("%v: want exit %d, got %s", tc.args, tc.code, r)
			continue
		}
		var doc struct{ Error, Usage string }
		if err := json.Unmarshal([]byte(r.Stderr), &doc); err != nil || strings.Count(strings.TrimSpace(r.Stderr), "\n") != 0 {
			t.Errorf("%v: stderr is not one JSON object (%v): %s", tc.args, err, r)
			continue
		}
		if !strings.Contains(doc.Error, tc.wantError) || doc.Usage != tc.wantUsage {
			t.Errorf("%v: got %+v, want error containing %q and usage %q", tc.args, doc, tc.wantError, tc.wantUsage)
		}
	}
}
