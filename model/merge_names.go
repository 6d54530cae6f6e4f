package model

import (
	"sort"
	"strconv"
)

// nameClashes reports servers whose names differ but normalize alike
// ("my.server" and "my_server"): their tools share the exposed prefix
// mcp__my_server__ and could not be told apart. Both stay listed; the
// problem is file-level because neither definition is wrong on its own.
func nameClashes(servers []Server) []Problem {
	groups := map[string][]Server{}
	for _, s := range servers {
		n := NormalizeName(s.Name)
		groups[n] = append(groups[n], s)
	}
	keys := make([]string, 0, len(groups))
	for k, g := range groups {
		if len(g) > 1 {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var probs []Problem
	for _, k := range keys {
		g := groups[k]
		names := ""
		for i, s := range g {
			if i > 0 {
				names += ", "
			}
			names += strconv.Quote(s.Name) + " (" + s.Scope.String() + ")"
		}
		probs = append(probs, Problem{
			File:    g[len(g)-1].Source,
			Message: "servers " + names + " share the tool prefix " + ToolPrefix(k) + ": rename one so their tools can be told apart",
		})
	}
	return probs
}
