package cliout

import (
	"io"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/mcpdeck/mcpdeck/model/lock"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// TerminalWriter is the CLI's one choke point between outside text and the
// terminal: cli.Run wraps the process's stdout and stderr in it, so
// everything a command prints — server names, URIs, results, error
// messages from servers and authorization servers — passes textsafe.Sanitize
// (newlines and tabs kept), whichever printing helper it took. Only what
// draws a screen of its own from sanitized text (the TUI, the form of `mcp
// add --registry`) and what speaks JSON-RPC (demo-server, serve) writes to
// the raw stdout. An incomplete UTF-8 character at the end of one Write is
// held back for the next, so a character split across writes is not
// mangled. Engine goroutines (progress, server log messages) write beside
// the command, so a write holds the writer.
type TerminalWriter struct {
	mu   sync.Mutex
	w    io.Writer
	tail []byte
	line *TermLine // the progress line drawn at the bottom, if any
}

// NewTerminalWriter wraps w, the process's stdout or stderr, in the
// sanitizing writer.
func NewTerminalWriter(w io.Writer) *TerminalWriter { return &TerminalWriter{w: w} }

func (t *TerminalWriter) Write(p []byte) (n int, err error) {
	lock.With(&t.mu, func() {
		buf := append(t.tail, p...)
		cut := completeRunes(buf)
		t.tail = append([]byte(nil), buf[cut:]...)
		out := textsafe.Sanitize(string(buf[:cut]))
		if l := t.line; l != nil && out != "" {
			if l.shown { // the message takes the progress line's place…
				out, l.shown = eraseLine+out, false
			}
			if l.text != "" && strings.HasSuffix(out, "\n") { // …which is drawn again under it
				out, l.shown = out+l.text, true
			}
		}
		if _, err = io.WriteString(t.w, out); err == nil {
			n = len(p)
		}
	})
	return n, err
}

// completeRunes is the length of b without a trailing incomplete UTF-8
// character (at most three bytes that could still become one).
func completeRunes(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-3; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return i
			}
			break
		}
	}
	return len(b)
}
