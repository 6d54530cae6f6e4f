package tuikit

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// wordBreaks are where a word too long for a line may be broken, best
// first: after a path's slash or a URL's query punctuation, else after a
// name's hyphen or underscore, a host's dot, a colon or a comma.
var wordBreaks = []string{"/?&=", "-_.:,;@"}

// Wrap wraps s at width columns, ANSI-aware, at spaces only: a word that
// fits on a line is never split, not at a hyphen either
// ("get-structured-content", "2025-11-25" and a name such as
// "mcp-server-everything" stay whole on the next line). Only a word wider
// than a line is broken, after its last wordBreaks character that fits,
// so a long path breaks between its names, not inside one; a word with
// none is cut at the width. A line's leading spaces (its indentation) are kept; the spaces
// where a line is broken are dropped.
func Wrap(s string, width int) string {
	if width < 1 {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if ansi.StringWidth(l) > width {
			lines[i] = wrapLine(l, width)
		}
	}
	return strings.Join(lines, "\n")
}

// wrapLine wraps one line (no newline in it) that is wider than width.
func wrapLine(s string, width int) string {
	var out []string
	var line strings.Builder
	lineW, hasWord := 0, false
	for s != "" {
		rest := strings.TrimLeft(s, " ")
		space := s[:len(s)-len(rest)]
		end := strings.IndexByte(rest, ' ')
		if end < 0 {
			end = len(rest)
		}
		word := rest[:end]
		s = rest[end:]
		if !hasWord && len(out) > 0 {
			space = "" // a wrapped line starts at its word
		}
		ww := ansi.StringWidth(word)
		switch {
		case lineW+len(space)+ww <= width:
			line.WriteString(space + word)
			lineW += len(space) + ww
		case word == "": // spaces that end the line and do not fit
			continue
		case ww <= width:
			out = append(out, line.String())
			line.Reset()
			line.WriteString(word)
			lineW = ww
		default: // wider than any line: broken, from where the line is
			prefix, room := line.String()+space, width-lineW-len(space)
			if hasWord || room < 2 { // no room for a wide character after the indentation
				if hasWord {
					out = append(out, line.String())
				}
				prefix, room = "", width
			}
			parts := breakWord(word, room, width)
			parts[0] = prefix + parts[0]
			out = append(out, parts[:len(parts)-1]...)
			last := parts[len(parts)-1]
			line.Reset()
			line.WriteString(last)
			lineW = ansi.StringWidth(last)
		}
		hasWord = hasWord || word != ""
	}
	return strings.Join(append(out, line.String()), "\n")
}

// breakWord cuts a word wider than width into pieces, the first at most
// first columns and the others at most width, each ending after its last
// wordBreaks character when it has one, else at the limit (a wide
// character wider than the limit is taken whole). One pass over the word:
// a hostile server's 60 KB token costs no more than its length.
func breakWord(word string, first, width int) []string {
	var out []string
	var piece []byte
	pieceW, limit := 0, first
	var breaks [2]struct{ at, w int } // per class of wordBreaks: where piece may be cut, and its width there
	var state byte
	for word != "" {
		seq, w, n, next := ansi.DecodeSequence(word, state, nil)
		if n <= 0 {
			seq, n = word[:1], 1
		}
		state, word = next, word[n:]
		for pieceW > 0 && pieceW+w > limit {
			cut, cutW := len(piece), pieceW
			for _, b := range breaks {
				if b.at > 0 {
					cut, cutW = b.at, b.w
					break
				}
			}
			out = append(out, string(piece[:cut]))
			piece = append([]byte(nil), piece[cut:]...)
			pieceW -= cutW
			breaks = [2]struct{ at, w int }{}
			limit = width
		}
		piece = append(piece, seq...)
		pieceW += w
		for class, chars := range wordBreaks {
			if w == 1 && strings.Contains(chars, seq) {
				breaks[class].at, breaks[class].w = len(piece), pieceW
			}
		}
	}
	return append(out, string(piece))
}

// WrapAll wraps every line to width columns, one screen line per element.
func WrapAll(lines []string, width int) []string {
	var out []string
	for _, l := range lines {
		out = append(out, strings.Split(Wrap(l, width), "\n")...)
	}
	return out
}
