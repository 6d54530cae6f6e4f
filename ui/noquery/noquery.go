// Package noquery stops the terminal query Bubble Tea v1 makes while the
// program starts. Bubble Tea's package init calls lipgloss.HasDarkBackground,
// which writes "ESC ] 11 ; ?" and "ESC [ 6 n" to a terminal and waits up to
// five seconds for an answer: every command, `mcpdeck mcp list` included,
// stalled for 5 s in a terminal that does not answer (a `script` session, a
// serial console, some CI runners). termenv, which makes the query, skips it
// when CI is set, so this package's init sets CI for the length of package
// initialization and main calls Restore first thing, before any server or
// helper process can inherit it. The TUI then detects the background
// itself, once, with a short timeout (styles.DetectBackground).
//
// It must import nothing but the standard library: Go initializes, among
// the packages ready to initialize, the one whose import path sorts first,
// and "github.com/mcpdeck/…" sorts before "github.com/muesli/termenv", which
// lipgloss and so Bubble Tea depend on. So this init runs before theirs
// (TestNoTerminalQueryAtStart in ui/cli checks the bytes a command writes).
package noquery

import "os"

// ciVar is the variable termenv reads to skip terminal queries.
const ciVar = "CI"

// state remembers whether init set ciVar, so Restore removes only what it
// added. It is written by init and by the first Restore only.
var state = hide(os.LookupEnv, os.Setenv)

func hide(lookup func(string) (string, bool), set func(string, string) error) bool {
	if _, ok := lookup(ciVar); ok {
		return false // already set by the person or a CI runner: nothing to undo
	}
	return set(ciVar, "1") == nil
}

// Restore removes CI again if init set it. main calls it before anything
// else, so nothing the program runs sees the variable.
func Restore() {
	if state {
		_ = os.Unsetenv(ciVar)
		state = false
	}
}
