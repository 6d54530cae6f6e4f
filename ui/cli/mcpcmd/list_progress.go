package mcpcmd

import (
	"fmt"
	"strings"
	"time"

	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
)

// listProgress is the one status line `mcp list` keeps on a terminal's
// stderr while servers start (a first `npx` download can take 20 s), so the
// wait is visible; it erases itself before the results are printed. It is
// nil, and prints nothing, when stderr is not a terminal: a pipe or a log
// gets only the results.
type listProgress struct {
	line  *clicore.TermLine
	start time.Time
	frame int
}

// listProgressTick is how often the spinner turns while nothing settles.
const listProgressTick = 120 * time.Millisecond

var spinnerFrames = [...]string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// newListProgress returns a progress line on g's stderr when that is a
// terminal that can erase a line (not TERM=dumb), else nil.
func newListProgress(g *clicore.Globals, now time.Time) *listProgress {
	line := clicore.NewTermLine(g)
	if line == nil {
		return nil
	}
	return &listProgress{line: line, start: now}
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
	p.line.Draw(fmt.Sprintf("%s %d of %d servers ready · waiting for %s%s · %ds",
		spinnerFrames[p.frame%len(spinnerFrames)], done, total, strings.Join(names, ", "), more, int(now.Sub(p.start).Seconds())))
	p.frame++
}

// clear erases the line, so the results start on a clean line.
func (p *listProgress) clear() {
	if p != nil {
		p.line.Clear()
	}
}
