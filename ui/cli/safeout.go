package cli

import (
	"io"
	"sync"
	"unicode/utf8"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// terminalWriter is the CLI's one choke point between outside text and the
// terminal: run wraps the process's stdout and stderr in it, so everything a
// command prints — server names, URIs, results, error messages from servers
// and authorization servers — passes textsafe.Sanitize (newlines and tabs
// kept), whichever printing helper it took. Only the TUI, which sanitizes
// its own frames, and demo-server, which speaks JSON-RPC, write to the raw
// stdout. An incomplete UTF-8 character at the end of one Write is held
// back for the next, so a character split across writes is not mangled.
// Engine goroutines (progress, server log messages) write beside the
// command, so a write holds the writer.
type terminalWriter struct {
	mu   sync.Mutex
	w    io.Writer
	tail []byte
}

func (t *terminalWriter) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	buf := append(t.tail, p...)
	cut := completeRunes(buf)
	t.tail = append([]byte(nil), buf[cut:]...)
	if _, err := io.WriteString(t.w, textsafe.Sanitize(string(buf[:cut]))); err != nil {
		return 0, err
	}
	return len(p), nil
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
