package config

import (
	"sort"
	"strconv"

	"github.com/mcpdeck/mcpdeck/model"
)

// nameClashes reports servers whose names differ but normalize alike
// ("my.server" and "my_server"): their tools share the exposed prefix
// mcp__my_server__ and could not be told apart. Both stay listed; the
// problem is file-level because neither definition is wrong on its own.
func nameClashes(servers []model.Server) []model.Problem {
	groups := map[string][]model.Server{}
	for _, s := range servers {
		n := model.NormalizeName(s.Name)
		groups[n] = append(groups[n], s)
	}
	keys := make([]string, 0, len(groups))
	for k, g := range groups {
		if len(g) > 1 {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var probs []model.Problem
	for _, k := range keys {
		g := groups[k]
		names := ""
		for i, s := range g {
			if i > 0 {
				names += ", "
			}
			names += strconv.Quote(s.Name) + " (" + s.Scope.String() + ")"
		}
		probs = append(probs, model.Problem{
			File:    g[len(g)-1].Source,
			Message: "servers " + names + " share the tool prefix " + model.ToolPrefix(k) + ": rename one so their tools can be told apart",
		})
	}
	return probs
}
