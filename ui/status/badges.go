package status

import "github.com/mcpdeck/mcpdeck/engine"

// ToolBadges lists what a person should know about a tool before calling
// it, in this order: read-only, destructive, open-world, denied by
// permissions, and a warning when another tool is exposed under the same
// name. "destructive" is left out on a read-only tool: the hint means
// nothing there (MCP's tool annotations). The TUI's tools tab and the
// CLI's `tools` both show them.
func ToolBadges(t *engine.Tool) []string {
	var b []string
	if t.ReadOnly {
		b = append(b, "read-only")
	}
	if t.Destructive && !t.ReadOnly {
		b = append(b, "destructive")
	}
	if t.OpenWorld {
		b = append(b, "open-world")
	}
	if t.Denied {
		b = append(b, "denied by permissions")
	}
	if t.Withheld != "" {
		b = append(b, "⚠ withheld: "+string(t.Withheld)+", review it")
	}
	if t.Collision != "" {
		b = append(b, "⚠ "+t.Collision)
	}
	return b
}
