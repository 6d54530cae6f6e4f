package status

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/policy"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// ToolBadges lists what a person should know about a tool before calling
// it, in this order: read-only, destructive, open-world, denied by
// permissions, and a warning when another tool is exposed under the same
// name. "destructive" is left out on a read-only tool: the hint means
// nothing there (MCP's tool annotations). The TUI's tools tab and the
// CLI's `tools` both show them. deniedBy is the server's ToolsDeniedBy:
// a tool denied because a settings file cannot be read says that file,
// not a rule that does not exist.
func ToolBadges(t *engine.Tool, deniedBy []model.Problem) []string {
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
	switch {
	case t.Denied && len(deniedBy) > 0:
		b = append(b, "denied: "+unreadableFiles(deniedBy))
	case t.Denied:
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

// ToolsDenied is the whole of why every tool is denied (the detail, the
// CLI's tools): policy.Permissions.UnreadableText, the one sentence.
func ToolsDenied(deniedBy []model.Problem) string {
	return policy.Permissions{Unreadable: deniedBy}.UnreadableText()
}

// ToolsDeniedShort is a row's word for a server whose tools are all denied
// because settings files' permission rules cannot be read (ToolsDeniedBy):
// "tools denied: settings.json unreadable (3:7)". The detail and the CLI
// say the whole cause (policy.Permissions.UnreadableText).
func ToolsDeniedShort(deniedBy []model.Problem) string {
	return "tools denied: " + unreadableFiles(deniedBy)
}

// unreadableFiles names the files of probs, "settings.json unreadable
// (3:7)", each where it broke.
func unreadableFiles(probs []model.Problem) string {
	parts := make([]string, 0, len(probs))
	for _, p := range probs {
		at := ""
		if p.Line > 0 {
			at = fmt.Sprintf(" (%d:%d)", p.Line, p.Col)
		}
		parts = append(parts, filepath.Base(p.File)+" unreadable"+at)
	}
	return textsafe.SanitizeLine(strings.Join(parts, ", "))
}
