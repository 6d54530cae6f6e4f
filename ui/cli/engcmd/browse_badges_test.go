package engcmd

import (
	"slices"
	"testing"

	"github.com/mcpdeck/mcpdeck/engine"
)

// TestToolsShowTheTUIsBadges: `tools` shows a tool's badges as the TUI
// does (status.ToolBadges): no "destructive" on a read-only tool, and a
// name collision marked as a warning.
func TestToolsShowTheTUIsBadges(t *testing.T) {
	srv := engine.ServerSnapshot{Tools: []engine.Tool{
		{Name: "look", ReadOnly: true, Destructive: true},
		{Name: "twin", Collision: "the same exposed name as b/twin"},
	}}
	_, lines, _ := engToolItems(srv)
	want := []string{"look [read-only]", "twin [⚠ the same exposed name as b/twin]"}
	if !slices.Equal(lines, want) {
		t.Errorf("lines %q, want %q", lines, want)
	}
}
