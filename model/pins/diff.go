package pins

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode"
)

// Op is what a Piece of a diff is.
type Op byte

// The ops of a diff.
const (
	Same    Op = '='
	Deleted Op = '-'
	Added   Op = '+'
)

// Piece is a run of text a diff keeps, deletes or adds.
type Piece struct {
	Op   Op     `json:"op"`
	Text string `json:"text"`
}

// maxDiffCells bounds the work of one diff (tokens of one side times the
// other's, after the common start and end): past it the middle is shown as
// deleted and added whole.
const maxDiffCells = 4 << 20

// Words diffs two texts word by word (words, spaces and punctuation are
// tokens of their own), for descriptions.
func Words(a, b string) []Piece { return diff(words(a), words(b)) }

// Lines diffs two texts line by line, for schemas (see Pretty).
func Lines(a, b string) []Piece { return diff(lines(a), lines(b)) }

// SchemaLines is the line diff of two schemas as they are shown: each
// pretty-printed, one Piece per line (without its line break), so that a
// view only chooses its marks.
func SchemaLines(a, b string) []Piece {
	var out []Piece
	for _, p := range Lines(Pretty(a), Pretty(b)) {
		for _, l := range strings.Split(strings.TrimSuffix(p.Text, "\n"), "\n") {
			out = append(out, Piece{Op: p.Op, Text: l})
		}
	}
	return out
}

// Pretty indents canonical JSON two spaces a level, one value a line, so
// that Lines shows which member of a schema changed; text that is not
// JSON is returned as it is.
func Pretty(s string) string {
	if s == "" {
		return ""
	}
	var b bytes.Buffer
	if json.Indent(&b, []byte(s), "", "  ") != nil {
		return s
	}
	return b.String()
}

// words splits s into tokens: runs of letters and digits, runs of
// spaces, and every other character on its own, so punctuation added to
// a word shows as added, not the word as replaced.
func words(s string) []string {
	class := func(r rune) int {
		switch {
		case unicode.IsSpace(r):
			return 1
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_':
			return 2
		}
		return 3
	}
	var out []string
	start, prev := 0, 0
	for i, r := range s {
		c := class(r)
		if i > start && (c != prev || c == 3) {
			out = append(out, s[start:i])
			start = i
		}
		prev = c
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

func lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.SplitAfter(s, "\n")
}

// diff is the shortest edit from a to b by longest common subsequence,
// adjacent pieces of one op merged.
func diff(a, b []string) []Piece {
	var out []Piece
	emit := func(op Op, s string) {
		if s == "" {
			return
		}
		if n := len(out); n > 0 && out[n-1].Op == op {
			out[n-1].Text += s
			return
		}
		out = append(out, Piece{op, s})
	}
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	q := 0
	for q < len(a)-p && q < len(b)-p && a[len(a)-1-q] == b[len(b)-1-q] {
		q++
	}
	emit(Same, strings.Join(a[:p], ""))
	ma, mb := a[p:len(a)-q], b[p:len(b)-q]
	if len(ma)*len(mb) > maxDiffCells {
		emit(Deleted, strings.Join(ma, ""))
		emit(Added, strings.Join(mb, ""))
	} else {
		lcsEdit(ma, mb, emit)
	}
	emit(Same, strings.Join(a[len(a)-q:], ""))
	return out
}

func lcsEdit(a, b []string, emit func(Op, string)) {
	w := len(b) + 1
	t := make([]int32, (len(a)+1)*w)
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				t[i*w+j] = t[(i+1)*w+j+1] + 1
			} else {
				t[i*w+j] = max(t[(i+1)*w+j], t[i*w+j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			emit(Same, a[i])
			i++
			j++
		case i < len(a) && (j == len(b) || t[(i+1)*w+j] >= t[i*w+j+1]):
			emit(Deleted, a[i])
			i++
		default:
			emit(Added, b[j])
			j++
		}
	}
}
