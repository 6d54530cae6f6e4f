package status

import (
	"slices"
	"testing"

	"github.com/mcpdeck/mcpdeck/engine"
)

// TestToolBadges: every badge in its order, and no "destructive" on a
// read-only tool, where the hint means nothing.
func TestToolBadges(t *testing.T) {
	for _, tc := range []struct {
		tool engine.Tool
		want []string
	}{
		{engine.Tool{Name: "plain"}, nil},
		{engine.Tool{ReadOnly: true, Destructive: true}, []string{"read-only"}},
		{engine.Tool{Destructive: true, OpenWorld: true}, []string{"destructive", "open-world"}},
		{
			engine.Tool{ReadOnly: true, OpenWorld: true, Denied: true, Collision: "the same exposed name as b/x"},
			[]string{"read-only", "open-world", "denied by permissions", "⚠ the same exposed name as b/x"},
		},
	} {
		if got := ToolBadges(&tc.tool, nil); !slices.Equal(got, tc.want) {
			t.Errorf("%+v: badges %q, want %q", tc.tool, got, tc.want)
		}
	}
}
