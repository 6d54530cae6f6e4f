package mcpcmd

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/charmbracelet/x/term"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
)

// listProgress is the one status line `mcp list` keeps on a terminal's
// stderr while servers start (a first `npx` download can take 20 s), so the
// wait is visible; it erases itself before the results are printed. It is
// nil, and prints nothing, when stderr is not a terminal: a pipe or a log
// gets only the results.
type listProgress struct {
	w     io.Writer // the terminal itself: the line is drawn with \r and erase-line
	width int
	start time.Time
	frame int
	drawn bool
}

// listProgressTick is how often the spinner turns while nothing settles.
const listProgressTick = 120 * time.Millisecond

var spinnerFrames = [...]string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// newListProgress returns a progress line on g's stderr when that is a
// terminal that can erase a line (not TERM=dumb), else nil.
func newListProgress(g *clicore.Globals, now time.Time) *listProgress {
	f, ok := g.RawStderr.(*os.File)
	if !ok || !term.IsTerminal(f.Fd()) || os.Getenv("TERM") == "dumb" {
		return nil
	}
	w, _, err := term.GetSize(f.Fd())
	if err != nil || w <= 0 {
		w = 80
	}
	return &listProgress{w: f, width: w, start: now}
}

// draw shows how many servers have settled and which are still starting.
func (p *listProgress) draw(now time.Time, done, total int, waiting []string) {
	if p == nil {
		return
	}
	names := waiting
	more := ""
	if len(names) > 3 {
		names, more = names[:3], fmt.Sprintf(" +%d more", len(waiting)-3)
	}
	line := fmt.Sprintf("%s %d of %d servers ready · waiting for %s%s · %ds",
		spinnerFrames[p.frame%len(spinnerFrames)], done, total, strings.Join(names, ", "), more, int(now.Sub(p.start).Seconds()))
	p.frame++
	line = textsafe.SanitizeLine(line) // server names come from config files
	if r := []rune(line); len(r) > p.width-1 {
		line = string(r[:max(p.width-2, 1)]) + "…"
	}
	fmt.Fprint(p.w, "\r\x1b[2K"+line)
	p.drawn = true
}

// clear erases the line, so the results start on a clean line.
func (p *listProgress) clear() {
	if p == nil || !p.drawn {
		return
	}
	fmt.Fprint(p.w, "\r\x1b[2K")
	p.drawn = false
}
