package clinames

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// suggestDistance is how many edits a mistyped name may be from a real one
// and still be suggested ("lst" → "list", "everythin" → "everything").
// Cobra applies the same rule (this distance, or a prefix) when it reports
// an unknown command itself; our commands reject stray arguments in NoArgs
// and mistyped server, tool, prompt and resource names in their own
// errors, which all ask Suggest.
const suggestDistance = 2

// EnableSuggestions sets suggestDistance on every command of the tree, so
// each parent ("mcpdeck", "mcpdeck mcp", …) suggests among its children
// when cobra reports an unknown command itself.
func EnableSuggestions(cmd *cobra.Command) {
	cmd.SuggestionsMinimumDistance = suggestDistance
	for _, c := range cmd.Commands() {
		EnableSuggestions(c)
	}
}

// Suggest is the name among candidates that typed most likely meant: the
// closest within suggestDistance edits, ignoring case, or one that typed
// begins; the first of equals in candidates' order. False when none is
// close, or typed is itself a candidate.
func Suggest(typed string, candidates []string) (string, bool) {
	if typed == "" {
		return "", false
	}
	lower := strings.ToLower(typed)
	best, bestDist := "", -1
	for _, c := range candidates {
		if c == typed {
			return "", false
		}
		lc := strings.ToLower(c)
		d := editDistance(lower, lc)
		if d > suggestDistance && !strings.HasPrefix(lc, lower) {
			continue
		}
		if bestDist < 0 || d < bestDist {
			best, bestDist = c, d
		}
	}
	return best, bestDist >= 0
}

// DidYouMean is `did you mean "NAME"?` for Suggest's answer, "" when it has
// none: the tail of an error about a name nothing has.
func DidYouMean(typed string, candidates []string) string {
	if s, ok := Suggest(typed, candidates); ok {
		return fmt.Sprintf("did you mean %q?", s)
	}
	return ""
}

// WithDidYouMean adds DidYouMean to err ("…; did you mean "echo"?"),
// keeping it for errors.Is and errors.As; err as it is when nothing is
// close.
func WithDidYouMean(err error, typed string, candidates []string) error {
	if hint := DidYouMean(typed, candidates); hint != "" {
		return fmt.Errorf("%w; %s", err, hint)
	}
	return err
}

// ClosestSubcommand is the subcommand of cmd closest to typed.
func ClosestSubcommand(cmd *cobra.Command, typed string) (string, bool) {
	var names []string
	for _, c := range cmd.Commands() {
		if c.IsAvailableCommand() {
			names = append(names, c.Name())
		}
	}
	return Suggest(typed, names)
}

// editDistance is the Levenshtein distance of two short names.
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
