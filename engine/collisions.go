package engine

import (
	"fmt"
	"slices"
	"strings"
)

// maxCollisionNames bounds how many other tools a collision names.
const maxCollisionNames = 3

// markCollisions sets each tool's Collision when another tool (of
// another server, or of the same one) has the same exposed name: an agent
// reaching tools by exposed name would get only one of them. It runs when
// tool lists changed (toolsDirty), not on every publish. Tool slices are
// shared with published snapshots, so a changed list is copied, never
// edited in place. Callers hold e.mu.
func markCollisions(order []*entry) {
	owners := map[string][]string{}
	for _, en := range order {
		for _, t := range en.lists.tools {
			owners[t.ExposedName] = append(owners[t.ExposedName], en.srv.Name+"/"+t.Name)
		}
	}
	for _, en := range order {
		var out []Tool
		for i, t := range en.lists.tools {
			want := collisionText(owners[t.ExposedName], en.srv.Name+"/"+t.Name)
			if want == t.Collision {
				continue
			}
			if out == nil {
				out = slices.Clone(en.lists.tools)
			}
			out[i].Collision = want
		}
		if out != nil {
			en.lists.tools = out
		}
	}
}

// collisionText names the tools other than self that share an exposed
// name ("server/tool"), "" when there are none.
func collisionText(owners []string, self string) string {
	if len(owners) < 2 {
		return ""
	}
	others := make([]string, 0, len(owners)-1)
	skipped := false
	for _, o := range owners {
		if o == self && !skipped {
			skipped = true
			continue
		}
		others = append(others, o)
	}
	more := ""
	if len(others) > maxCollisionNames {
		more = fmt.Sprintf(" and %d more", len(others)-maxCollisionNames)
		others = others[:maxCollisionNames]
	}
	return "the same exposed name as " + strings.Join(others, ", ") + more
}
