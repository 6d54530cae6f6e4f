package model

import "testing"

// TestProblemLeadsWithTheCause: a problem reads cause first and location
// last, so a narrow screen cuts the path, not the reason.
func TestProblemLeadsWithTheCause(t *testing.T) {
	for _, tc := range []struct {
		p    Problem
		want string
	}{
		{Problem{File: ".mcp.json", Line: 6, Col: 104, Message: "unexpected ','"}, "unexpected ',' (.mcp.json:6:104)"},
		{Problem{File: ".mcp.json", Server: "a", Field: "args", Message: "must be an array"}, "server a, field args: must be an array (.mcp.json)"},
		{Problem{Field: "env.T", Message: "${T} is not set"}, "field env.T: ${T} is not set"},
	} {
		if got := tc.p.Error(); got != tc.want {
			t.Errorf("Error() = %q, want %q", got, tc.want)
		}
	}
}
