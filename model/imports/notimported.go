package imports

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// Unimported is what Claude Code knows that mcpdeck does not: the
// servers `claude mcp add` keeps in ~/.claude.json (user-wide, and this
// project's) with no server of the same name in mcpdeck's configuration.
// Its project's .mcp.json is not among them: mcpdeck reads that file
// itself.
type Unimported struct {
	File  string   `json:"file"`
	Names []string `json:"names"`
}

// ClaudeCodeUnimported reads ~/.claude.json under env and returns the
// servers it holds that has does not name (has normalizes as it likes),
// sorted; nil when there are none, or when the file is missing or
// unreadable (an import would say why).
func ClaudeCodeUnimported(env Env, has func(name string) bool) *Unimported {
	res, err := Read(ClaudeCode, env)
	if err != nil {
		return nil
	}
	file := filepath.Join(env.Home, ".claude.json")
	var names []string
	for _, e := range res.Entries {
		if e.Source != file || has(e.Name) || slices.ContainsFunc(names, func(n string) bool { return model.NormalizeName(n) == model.NormalizeName(e.Name) }) {
			continue
		}
		names = append(names, e.Name)
	}
	if len(names) == 0 {
		return nil
	}
	slices.Sort(names)
	return &Unimported{File: file, Names: names}
}

// ImportCommand is the command that imports them.
const ImportCommand = "mcpdeck mcp import --from claude-code"

// Notice is the one line that says so, with the command that imports
// them: `mcp list` and doctor print it, the TUI lists it under ?.
func (u Unimported) Notice() string {
	return textsafe.SanitizeLine(u.Short() + " (" + strings.Join(u.Names, ", ") + "): " + ImportCommand)
}

// Short is the notice for a header: how many, and where.
func (u Unimported) Short() string {
	if len(u.Names) == 1 {
		return "1 server in ~/.claude.json not imported"
	}
	return fmt.Sprintf("%d servers in ~/.claude.json not imported", len(u.Names))
}
