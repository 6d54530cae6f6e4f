package model

import (
	"strings"
)

// Diff describes how a definition changed, line by line, over the canonical
// indented JSON of both (keys sorted, so only real changes show). Lines are
// prefixed "- " (only in old), "+ " (only in new) or "  " (both). It returns
// "" when the definitions are canonically equal. The approval prompt shows it
// so a person sees exactly what a repository changed.
func Diff(old, new ServerConfig) string {
	a := strings.Split(string(prettyJSON(old)), "\n")
	b := strings.Split(string(prettyJSON(new)), "\n")
	if strings.Join(a, "\n") == strings.Join(b, "\n") {
		return ""
	}
	// Longest common subsequence table; configs are small (tens of lines).
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out strings.Builder
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			out.WriteString("  " + a[i] + "\n")
			i++
			j++
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			out.WriteString("- " + a[i] + "\n")
			i++
		default:
			out.WriteString("+ " + b[j] + "\n")
			j++
		}
	}
	return out.String()
}
