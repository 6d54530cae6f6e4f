package engcmd

import (
	"fmt"
	"strings"
	"sync"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model/lock"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliout"
)

// progressBarWidth is how many cells the bar of a call with a known total
// has.
const progressBarWidth = 20

// callProgress shows a call's progress notifications on stderr: on a
// terminal one line redrawn in place, with a bar when the total is known;
// elsewhere (a pipe, a log) one plain line each, "progress: 3/10 message".
// Once the call has ended it shows nothing more: the engine may still
// deliver progress a server sent after its result.
type callProgress struct {
	g    *clicore.Globals
	line *cliout.TermLine // nil: not a terminal
	mu   sync.Mutex
	done bool
}

func newCallProgress(g *clicore.Globals) *callProgress {
	return &callProgress{g: g, line: cliout.NewTermLine(g)}
}

// show shows one notification.
func (c *callProgress) show(p engine.Progress) {
	lock.With(&c.mu, func() {
		switch {
		case c.done:
		case c.line == nil:
			fmt.Fprintln(c.g.Stderr, textsafe.SanitizeLine("progress: "+progressText(p)))
		default:
			c.line.Draw("progress " + progressBar(p) + progressText(p))
		}
	})
}

// end erases the line before the result is printed.
func (c *callProgress) end() {
	lock.With(&c.mu, func() {
		c.done = true
		c.line.Clear()
	})
}

// progressText is "3/10 message", or "3 message" without a total.
func progressText(p engine.Progress) string {
	s := fmt.Sprintf("%g", p.Progress)
	if p.Total > 0 {
		s += fmt.Sprintf("/%g", p.Total)
	}
	if p.Message != "" {
		s += " " + p.Message
	}
	return s
}

// progressBar is "▕██████░░░░▏ " for a known total, else "".
func progressBar(p engine.Progress) string {
	if p.Total <= 0 {
		return ""
	}
	n := int(min(max(p.Progress/p.Total, 0), 1) * progressBarWidth)
	return "▕" + strings.Repeat("█", n) + strings.Repeat("░", progressBarWidth-n) + "▏ "
}
