package cli

import (
	"os"

	"github.com/charmbracelet/x/term"
)

// onTerminal reports whether a person is at the keyboard and sees the
// output: standard input and the process's own standard output (not the
// sanitizing writer wrapped around it) are both terminals. The TUI and the
// confirmations that show what will run both need that.
func onTerminal(g *globalOpts) bool {
	in, inOK := g.stdin.(*os.File)
	out, outOK := g.rawStdout.(*os.File)
	return inOK && outOK && term.IsTerminal(in.Fd()) && term.IsTerminal(out.Fd())
}
