package status

import (
	"fmt"
	"path/filepath"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// Unreadable picks the problems of scopes' files whose servers could not be
// read (model.Problem.Scope), in the order given.
func Unreadable(probs []model.Problem) []model.Problem {
	var out []model.Problem
	for _, p := range probs {
		if p.Scope != 0 {
			out = append(out, p)
		}
	}
	return out
}

// UnreadableRow is the row the TUI's list and `mcp list` show for such a
// file, "project — .mcp.json unreadable (9:5): invalid JSON: …": the place
// before the cause, so that it is never the part cut off. The servers the
// file gave before it broke stay listed under it (the engine keeps them).
func UnreadableRow(p model.Problem) string {
	at := ""
	if p.Line > 0 {
		at = fmt.Sprintf(" (%d:%d)", p.Line, p.Col)
	}
	return textsafe.SanitizeLine(p.Scope.String() + " — " + filepath.Base(p.File) + " unreadable" + at + ": " + p.Cause())
}
