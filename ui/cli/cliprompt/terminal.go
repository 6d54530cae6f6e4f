package cliprompt

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/charmbracelet/x/term"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
)

// OnTerminal reports whether a person is at the keyboard and sees the
// output: standard input and the process's own standard output (not the
// sanitizing writer wrapped around it) are both terminals. The TUI and the
// confirmations that show what will run both need that.
func OnTerminal(g *clicore.Globals) bool {
	in, inOK := g.Stdin.(*os.File)
	out, outOK := g.RawStdout.(*os.File)
	return inOK && outOK && term.IsTerminal(in.Fd()) && term.IsTerminal(out.Fd())
}

// Confirm asks question on stdout and reports whether the person typed y
// or yes; anything else, or end of input, is no.
func Confirm(g *clicore.Globals, question string) (bool, error) {
	fmt.Fprint(g.Stdout, question+" [y/N] ")
	answer, err := g.Input().ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return false, fmt.Errorf("reading your answer: %w", err)
	}
	a := strings.ToLower(strings.TrimSpace(answer))
	return a == "y" || a == "yes", nil
}
