package transports

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// ErrMessageTooLarge means a server sent a message above the size limit
// (Options.MaxMessageSize). The connection is ended: the server would send
// the same message again, so reconnecting cannot help.
var ErrMessageTooLarge = errors.New("message too large")

// MessageTooLargeError names the server and the limit it exceeded. It
// matches ErrMessageTooLarge.
type MessageTooLargeError struct {
	Server string
	Limit  int    // bytes
	What   string // what was too large; "" = "a message"
	Lines  int    // set when an event had too many lines rather than too many bytes
	Err    error  // the underlying error, if any (e.g. the websocket's)
}

// Error is a sentence a person understands.
func (e *MessageTooLargeError) Error() string {
	if e.Lines > 0 {
		return fmt.Sprintf("server %s sent an event of more than %d lines; mcpdeck closed the connection",
			textsafe.SanitizeLine(e.Server), e.Lines)
	}
	what := e.What
	if what == "" {
		what = "a message"
	}
	return fmt.Sprintf("server %s sent %s larger than %s; mcpdeck closed the connection",
		textsafe.SanitizeLine(e.Server), what, FormatSize(e.Limit))
}

// Is makes errors.Is(err, ErrMessageTooLarge) true.
func (e *MessageTooLargeError) Is(target error) bool { return target == ErrMessageTooLarge }

// Unwrap returns the underlying error.
func (e *MessageTooLargeError) Unwrap() error { return e.Err }

// maxMessage is o.MaxMessageSize, or the default when unset (callers that
// skip withDefaults must not end up with a limit of zero).
func (o Options) maxMessage() int {
	if o.MaxMessageSize > 0 {
		return o.MaxMessageSize
	}
	return MaxMessageSize
}

// FormatSize renders a byte count the way limits are spoken of: "32 MB",
// "64 KB", or "1000 bytes" when it is not a whole number of either.
func FormatSize(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// limitBodies wraps next so that no response body can hand mcp-go more than
// limit bytes per message: a whole body, or one event of an event stream (a
// long-lived stream carries many). mcp-go reads bodies itself and buffers a
// message until it ends, so this is where its memory is bounded. When a
// message exceeds the limit, the body read fails with a
// *MessageTooLargeError and onExceeded ends the connection with it.
func limitBodies(next http.RoundTripper, server string, limit int, onExceeded func(error)) http.RoundTripper {
	return &limitTransport{next: next, server: server, limit: limit, onExceeded: onExceeded}
}

type limitTransport struct {
	next       http.RoundTripper
	server     string
	limit      int
	onExceeded func(error)
}

// RoundTrip implements http.RoundTripper.
func (l *limitTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := l.next.RoundTrip(req)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	resp.Body = &limitedBody{rc: resp.Body, t: l, events: mt == "text/event-stream", lineStart: true}
	return resp, nil
}

// maxEventLines bounds the lines of one event-stream event. mcp-go joins an
// event's data lines by string concatenation, so the CPU an event costs
// grows with lines × size: a 32 MB event in short lines would take hours.
// Servers send a JSON-RPC message as one data line (plus id/event lines).
const maxEventLines = 1024

// limitedBody counts the bytes of the current message. It never reads more
// than limit+1 bytes of one message from the network.
type limitedBody struct {
	rc     io.ReadCloser
	t      *limitTransport
	events bool // text/event-stream: a blank line ends a message

	n         int  // bytes of the current message so far
	lines     int  // events: lines of the current event so far
	lineStart bool // events: the last byte ended a line
	lastCR    bool // events: the last byte was a CR (a LF may follow)
	err       error
}

// Read implements io.Reader.
func (b *limitedBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if room := b.t.limit - b.n + 1; len(p) > room {
		p = p[:room]
	}
	n, err := b.rc.Read(p)
	var ok bool
	if b.events {
		ok = b.scan(p[:n])
	} else {
		b.n += n
		ok = b.n <= b.t.limit
	}
	if !ok {
		e := &MessageTooLargeError{Server: b.t.server, Limit: b.t.limit}
		if b.lines > maxEventLines {
			e.Lines = maxEventLines
		}
		b.err = e
		if b.t.onExceeded != nil {
			b.t.onExceeded(b.err)
		}
		return 0, b.err
	}
	return n, err
}

// scan counts p into the current event, starting a new one after each
// blank line (lines end in CRLF, LF or CR). It reports false as soon as an
// event exceeds the limit.
func (b *limitedBody) scan(p []byte) bool {
	for len(p) > 0 {
		i := bytes.IndexAny(p, "\r\n")
		if i < 0 {
			b.n += len(p)
			b.lineStart, b.lastCR = false, false
			return b.n <= b.t.limit
		}
		if i > 0 {
			b.lineStart, b.lastCR = false, false
		}
		b.n += i + 1
		if b.n > b.t.limit {
			return false
		}
		c := p[i]
		p = p[i+1:]
		if c == '\n' && b.lastCR { // the LF of a CRLF: that line already ended
			b.lastCR = false
			continue
		}
		b.lastCR = c == '\r'
		if b.lineStart { // a blank line: the event ended
			b.n, b.lines = 0, 0
		} else if b.lines++; b.lines > maxEventLines {
			return false
		}
		b.lineStart = true
	}
	return true
}

// Close implements io.Closer.
func (b *limitedBody) Close() error { return b.rc.Close() }
