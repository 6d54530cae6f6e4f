package styles

import (
	"bytes"
	"image/color"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// BackgroundTimeout bounds the TUI's one question to the terminal about its
// background colour: a terminal that does not answer at all costs this, not
// the five seconds termenv would wait. Every terminal answers the cursor
// question that ends the wait, so this matters only for one that answers
// nothing; it is long enough for a slow SSH link, whose late answer would
// otherwise reach Bubble Tea as typed keys.
const BackgroundTimeout = time.Second

// backgroundQuery asks for the background colour (OSC 11), then for the
// cursor position (DSR): every terminal answers the second, so its answer
// ends the wait even when the first gets none.
const backgroundQuery = ansi.RequestBackgroundColor + "\x1b[6n"

// DetectBackground asks the terminal once, within BackgroundTimeout,
// whether its background is dark, and tells lipgloss so the adaptive
// palette picks its light or dark half. Nothing is asked under NO_COLOR
// (no colours to pick), with TERM=dumb or unset (such a terminal cannot
// answer), or inside screen/tmux (they may front several terminals);
// lipgloss then keeps its default, dark. Only the TUI calls it, before
// Bubble Tea takes the terminal; a CLI command never queries the terminal
// (see package ui/noquery).
func DetectBackground(getenv func(string) string) {
	if !wantsBackgroundQuery(getenv) {
		return
	}
	if dark, ok := queryBackground(BackgroundTimeout); ok {
		lipgloss.SetHasDarkBackground(dark)
	}
}

// wantsBackgroundQuery reports whether a background query can be useful.
func wantsBackgroundQuery(getenv func(string) string) bool {
	term := getenv("TERM")
	for _, no := range []string{"dumb", "screen", "tmux"} {
		if strings.HasPrefix(term, no) {
			return false
		}
	}
	return getenv("NO_COLOR") == "" && term != ""
}

// parseBackgroundReply finds the OSC 11 answer in what the terminal sent
// ("ESC ] 11 ; rgb:RRRR/GGGG/BBBB" ended by BEL or ST) and reports whether
// that colour is dark. ok is false when there is no usable answer.
func parseBackgroundReply(b []byte) (dark, ok bool) {
	i := bytes.Index(b, []byte("\x1b]11;"))
	if i < 0 {
		return false, false
	}
	rest := b[i+len("\x1b]11;"):]
	end := bytes.IndexAny(rest, "\x07\x1b")
	if end < 0 {
		return false, false
	}
	c := ansi.XParseColor(string(rest[:end]))
	if c == nil {
		return false, false
	}
	return isDark(c), true
}

// isDark reports whether c's relative luminance is below the middle.
func isDark(c color.Color) bool {
	r, g, b, _ := c.RGBA() // 0..0xffff
	l := (0.2126*float64(r) + 0.7152*float64(g) + 0.0722*float64(b)) / 0xffff
	return l < 0.5
}

// replyComplete reports whether b holds the cursor-position answer
// ("ESC [ row ; col R"), which the terminal sends after the colour's.
func replyComplete(b []byte) bool {
	i := bytes.LastIndex(b, []byte("\x1b["))
	if i < 0 {
		return false
	}
	for _, c := range b[i+2:] {
		switch {
		case c == 'R':
			return true
		case c == ';' || (c >= '0' && c <= '9'):
		default:
			return false
		}
	}
	return false
}
