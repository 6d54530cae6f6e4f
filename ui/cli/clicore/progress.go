package clicore

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/charmbracelet/x/term"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// ProgressLine is the one status line a command keeps on a terminal's
// stderr while it waits (servers starting, the MCP Registry answering), so
// that the wait is seen, and for how long: "⠋ what · 3s". It is redrawn in
// place and erased before the results are printed. It is nil, and prints
// nothing, when stderr is not a terminal that can erase a line: a pipe or
// a log gets only the results.
type ProgressLine struct {
	w     io.Writer // the terminal itself: the line is drawn with \r and erase-line
	width int
	start time.Time
	frame int
	drawn bool
}

// ProgressTick is how often a progress line turns while nothing changes.
const ProgressTick = 120 * time.Millisecond

// spinnerFrames turn one a tick.
const spinnerFrames = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"

// NewProgressLine returns a progress line on g's stderr, its seconds
// counted from now, when that is a terminal that can erase a line (not
// TERM=dumb); else nil.
func NewProgressLine(g *Globals, now time.Time) *ProgressLine {
	f, ok := g.RawStderr.(*os.File)
	if !ok || !term.IsTerminal(f.Fd()) || os.Getenv("TERM") == "dumb" {
		return nil
	}
	w, _, err := term.GetSize(f.Fd())
	if err != nil || w <= 0 {
		w = 80
	}
	return &ProgressLine{w: f, width: w, start: now}
}

// Draw shows text after the spinner's next frame, with the seconds since
// the line began, cut to the terminal's width.
func (p *ProgressLine) Draw(now time.Time, text string) {
	if p == nil {
		return
	}
	frames := []rune(spinnerFrames)
	line := fmt.Sprintf("%c %s · %ds", frames[p.frame%len(frames)], text, int(now.Sub(p.start)/time.Second))
	p.frame++
	line = textsafe.SanitizeLine(line) // names come from config files and the registry's URL from the environment
	if r := []rune(line); len(r) > p.width-1 {
		line = string(r[:max(p.width-2, 1)]) + "…"
	}
	fmt.Fprint(p.w, "\r\x1b[2K"+line)
	p.drawn = true
}

// Clear erases the line, so the results start on a clean line.
func (p *ProgressLine) Clear() {
	if p == nil || !p.drawn {
		return
	}
	fmt.Fprint(p.w, "\r\x1b[2K")
	p.drawn = false
}

// Waiting keeps "⠋ what · 3s" on a terminal's stderr, turning every
// ProgressTick, until the returned func is first called; that erases it.
// Off a terminal it does nothing.
func Waiting(g *Globals, what string) (stop func()) {
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
