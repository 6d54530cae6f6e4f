package cliout

import (
	"fmt"
	"sync"
	"time"

	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
)

// ProgressLine is a command's wait on a terminal's stderr (servers
// starting, the MCP Registry answering), drawn on the one TermLine with a
// spinner and the seconds waited, so that the wait is seen, and for how
// long: "⠋ what · 3s". It is nil, and prints nothing, where TermLine is: a
// pipe or a log gets only the results.
type ProgressLine struct {
	line  *TermLine
	start time.Time
	frame int
}

// ProgressTick is how often a progress line turns while nothing changes.
const ProgressTick = 120 * time.Millisecond

// spinnerFrames turn one a tick.
const spinnerFrames = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"

// NewProgressLine returns a progress line on g's stderr, its seconds
// counted from now, when that is a terminal that can erase a line (not
// TERM=dumb); else nil.
func NewProgressLine(g *clicore.Globals, now time.Time) *ProgressLine {
	line := NewTermLine(g)
	if line == nil {
		return nil
	}
	return &ProgressLine{line: line, start: now}
}

// Draw shows text after the spinner's next frame, with the seconds since
// the line began (TermLine cuts it to the terminal's width).
func (p *ProgressLine) Draw(now time.Time, text string) {
	if p == nil {
		return
	}
	frames := []rune(spinnerFrames)
	p.line.Draw(fmt.Sprintf("%c %s · %ds", frames[p.frame%len(frames)], text, int(now.Sub(p.start)/time.Second)))
	p.frame++
}

// Clear erases the line, so the results start on a clean line.
func (p *ProgressLine) Clear() {
	if p != nil {
		p.line.Clear()
	}
}

// Waiting keeps "⠋ what · 3s" on a terminal's stderr, turning every
// ProgressTick, until the returned func is first called; that erases it.
// Off a terminal it does nothing.
func Waiting(g *clicore.Globals, what string) (stop func()) {
	p := NewProgressLine(g, time.Now())
	if p == nil {
		return func() {}
	}
	p.Draw(time.Now(), what)
	done, ended := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(ended)
		t := time.NewTicker(ProgressTick)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case now := <-t.C:
				p.Draw(now, what)
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			close(done)
			<-ended
			p.Clear()
		})
	}
}
