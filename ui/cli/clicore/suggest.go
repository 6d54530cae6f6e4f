package clicore

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"
)

// suggestDistance is how many edits a mistyped command may be from a real
// one and still be suggested ("lst" → "list"). Cobra applies its own default
// of 2 only when it reports an unknown command itself; our commands reject
// stray arguments in NoArgs, which asks SuggestionsFor, where 0 would mean
// "prefixes only".
const suggestDistance = 2

// EnableSuggestions sets suggestDistance on every command of the tree, so
// each parent ("mcpdeck", "mcpdeck mcp", …) suggests among its children.
func EnableSuggestions(cmd *cobra.Command) {
	cmd.SuggestionsMinimumDistance = suggestDistance
	for _, c := range cmd.Commands() {
		EnableSuggestions(c)
	}
}

// bestSuggestion is the subcommand of cmd closest to typed: cobra lists its
// candidates in tree order, so "lst" would get "get" before "list".
func bestSuggestion(cmd *cobra.Command, typed string) (string, bool) {
	s := cmd.SuggestionsFor(typed)
	if len(s) == 0 {
		return "", false
	}
	typed = strings.ToLower(typed)
	return slices.MinFunc(s, func(a, b string) int {
		return editDistance(typed, strings.ToLower(a)) - editDistance(typed, strings.ToLower(b))
	}), true
}

// editDistance is the Levenshtein distance of two short command names.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
