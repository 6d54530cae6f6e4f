package textsafe

import (
	"strings"
)

// QuoteArg shows one command-line word so that it reads back exactly: bare
// when it has nothing special, 'single-quoted' when it has spaces or shell
// characters, and $'…' (the shell's ANSI-C quoting, with Escape's \r,
// \x1b, \u202e) when it has characters that must not reach the terminal.
func QuoteArg(a string) string {
	if a == "" {
		return "''"
	}
	if Escape(a) != a {
		q := strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(a)
		return "$'" + Escape(q) + "'"
	}
	if strings.ContainsAny(a, " \"'\\$`!*?[]{}()<>|&;#~") {
		return "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return a
}

// QuoteCommand shows a command line, the program and each argument
// QuoteArg'd and joined by spaces, so that `sh -c 'echo hi'` reads back as
// the words it runs: every place that shows a command line uses it.
func QuoteCommand(command string, args []string) string {
	parts := make([]string, 0, 1+len(args))
	for _, a := range append([]string{command}, args...) {
		parts = append(parts, QuoteArg(a))
	}
	return strings.Join(parts, " ")
}
