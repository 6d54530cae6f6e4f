package cliout

import (
	"io"
	"os"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"

	"github.com/mcpdeck/mcpdeck/model/lock"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
)

// eraseLine returns the cursor to the start of the line and clears it.
const eraseLine = "\r\x1b[2K"

// TermLine is one line of progress kept at the bottom of a terminal's
// stderr and redrawn in place (carriage return, erase line), so that a
// progress bar or spinner takes one line, not one per update. Whatever
// else the command prints on stderr meanwhile erases it first and draws
// it again after a complete line (TerminalWriter.Write), so no message
// runs into it. It is nil, and prints nothing, when stderr is not a
// terminal that can erase a line (a pipe, a log, TERM=dumb): callers print
// plain lines then.
type TermLine struct {
	tw    *TerminalWriter // stderr, whose lock serializes the line with every other write
	width int
	text  string // the progress; "" before the first Draw
	shown bool   // text is on screen, on the cursor's line
}

// NewTermLine returns the progress line of g's stderr when that is a
// terminal, else nil. Clear ends it.
func NewTermLine(g *clicore.Globals) *TermLine {
	tw, ok := g.Stderr.(*TerminalWriter)
	f, isFile := g.RawStderr.(*os.File)
	if !ok || !isFile || !term.IsTerminal(f.Fd()) || os.Getenv("TERM") == "dumb" {
		return nil
	}
	w, _, err := term.GetSize(f.Fd())
	if err != nil || w <= 0 {
		w = 80
	}
	l := &TermLine{tw: tw, width: w}
	lock.With(&tw.mu, func() { tw.line = l })
	return l
}

// Draw replaces the line with text (outside text allowed: it is
// sanitized), cut to fit the terminal.
func (l *TermLine) Draw(text string) {
	if l == nil {
		return
	}
	text = ansi.Truncate(textsafe.SanitizeLine(text), max(l.width-1, 1), "…")
	lock.With(&l.tw.mu, func() {
		l.text, l.shown = text, true
		_, _ = io.WriteString(l.tw.w, eraseLine+text)
	})
}

// Clear erases the line and ends it, so what follows starts on a clean
// line.
func (l *TermLine) Clear() {
	if l == nil {
		return
	}
	lock.With(&l.tw.mu, func() {
		if l.shown {
			_, _ = io.WriteString(l.tw.w, eraseLine)
		}
		l.text, l.shown = "", false
		if l.tw.line == l {
			l.tw.line = nil
		}
	})
}
