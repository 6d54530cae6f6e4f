package inorder

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/mcpdeck/mcpdeck/model/lock"
)

// HTTP wraps a streamable HTTP MCP handler (mcp-go's): a POST carrying
// one JSON-RPC request, from a client that accepts SSE, gets a Stream in
// its context, so what Send sends about the request goes on that POST's
// response, before its result.
func HTTP(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, canFlush := w.(http.Flusher)
		if r.Method != http.MethodPost || !canFlush || !acceptsSSE(r.Header) {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(r.Body)
		r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), errReader{err}))
		if err != nil || !isRequest(body) {
			next.ServeHTTP(w, r)
			return
		}
		rw := &responseWriter{rw: w, flusher: f, hdr: w.Header().Clone()}
		rw.Stream = newStream(flushWriter{rw}, sseEvent)
		rw.begin = rw.beginSSE
		defer rw.finish()
		next.ServeHTTP(rw, r.WithContext(context.WithValue(r.Context(), streamKey{}, rw.Stream)))
	})
}

// responseWriter is the response of a POST with a Stream: the server's
// writes go out after the queued notifications.
type responseWriter struct {
	*Stream
	rw      http.ResponseWriter
	flusher http.Flusher
	// hdr is the server's header, copied to rw's when it sends its
	// status: the Stream's goroutine may be writing rw's meanwhile.
	hdr http.Header
	// Guarded by the Stream's wmu:
	wroteHeader bool
	sse         bool
	answered    bool // the server sent its status (or began its body)
	// reframe says the server answers without SSE on a response the
	// notifications already made SSE: its body is kept in body and sent
	// as one event when the handler returns (finish).
	reframe bool
	body    []byte
}

func (w *responseWriter) Header() http.Header { return w.hdr }

// WriteHeader sends the server's status, after the queued notifications
// when the server answers with SSE too; a second call (the server
// upgrading a stream the notifications already upgraded) does nothing.
func (w *responseWriter) WriteHeader(code int) {
	lock.With(&w.wmu, func() { w.headerLocked(code) })
}

// headerLocked sends the server's status unless one was sent. If the
// server does not answer with SSE, the queued notifications cannot go
// on this response and go the ordinary way; if they already made it SSE
// (one sent after the server chose plain JSON, such as a server's
// progress relayed after its result), the server's body is reframed as
// an event instead, for JSON on an SSE stream is no message at all.
func (w *responseWriter) headerLocked(code int) {
	if w.answered {
		return
	}
	w.answered = true
	if w.wroteHeader {
		w.reframe = w.sse && !isSSE(w.hdr)
		return
	}
	if isSSE(w.hdr) {
		w.drainLocked()
		if w.wroteHeader {
			return
		}
	} else {
		w.broken = true
		fallback(w.take())
	}
	h := w.rw.Header()
	for k, v := range w.hdr {
		h[k] = v
	}
	w.rw.WriteHeader(code)
	w.wroteHeader, w.sse = true, isSSE(h)
}

func (w *responseWriter) Write(p []byte) (int, error) {
	var sse, kept bool
	lock.With(&w.wmu, func() {
		w.headerLocked(http.StatusOK)
		sse, kept = w.sse, w.reframe
		if kept {
			w.body = append(w.body, p...)
		}
	})
	if kept {
		return len(p), nil
	}
	return w.serverWrite(p, sse)
}

// finish ends the response when the handler returns: a reframed answer
// goes out as one event, after the queued notifications; notifications
// still coming go the ordinary way.
func (w *responseWriter) finish() {
	var body []byte
	lock.With(&w.wmu, func() { body, w.body = bytes.TrimSpace(w.body), nil })
	if len(body) > 0 {
		if _, err := w.serverWrite(sseEvent(body), true); err == nil {
			w.Flush()
		}
	}
	fallback(w.close(true))
}

func (w *responseWriter) Flush() {
	lock.With(&w.wmu, w.flusher.Flush)
}

// Unwrap lets http.ResponseController reach the connection (write deadlines).
func (w *responseWriter) Unwrap() http.ResponseWriter { return w.rw }

// beginSSE upgrades the response to SSE for the first notification, or
// reports false when the server already answered otherwise. Called with
// wmu held.
func (w *responseWriter) beginSSE() bool {
	if w.wroteHeader {
		return w.sse
	}
	h := w.rw.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("Connection", "keep-alive")
	w.rw.WriteHeader(http.StatusOK)
	w.wroteHeader, w.sse = true, true
	return true
}

// flushWriter is where the Stream writes notifications: the response
// itself, then flushed so each reaches the client at once.
type flushWriter struct{ w *responseWriter }

func (f flushWriter) Write(p []byte) (int, error) { return f.w.rw.Write(p) }
func (f flushWriter) Flush()                      { f.w.flusher.Flush() }

// sseEvent frames one JSON message as an SSE event, as mcp-go writes
// them. A raw line break in JSON can only be whitespace between tokens
// (in a string it is escaped), so it becomes a space: the event stays one
// data line.
func sseEvent(msg []byte) []byte {
	b := make([]byte, 0, len(msg)+24)
	b = append(b, "event: message\ndata: "...)
	if !bytes.ContainsAny(msg, "\r\n") {
		b = append(b, msg...)
		return append(b, "\n\n"...)
	}
	for _, c := range msg {
		if c == '\n' || c == '\r' {
			c = ' '
		}
		b = append(b, c)
	}
	return append(b, "\n\n"...)
}

func isSSE(h http.Header) bool {
	mt, _, err := mime.ParseMediaType(h.Get("Content-Type"))
	return err == nil && mt == "text/event-stream"
}

// acceptsSSE reports whether the client said it takes an SSE answer.
func acceptsSSE(h http.Header) bool {
	for _, v := range h.Values("Accept") {
		for _, part := range strings.Split(v, ",") {
			if mt, _, err := mime.ParseMediaType(strings.TrimSpace(part)); err == nil && (mt == "text/event-stream" || mt == "*/*") {
				return true
			}
		}
	}
	return false
}

// isRequest reports whether body is one JSON-RPC request (a method and an
// id): only a request has a result for notifications to precede.
func isRequest(body []byte) bool {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(body, &m) != nil {
		return false
	}
	id := bytes.TrimSpace(m.ID)
	return m.Method != "" && len(id) > 0 && !bytes.Equal(id, []byte("null"))
}

// errReader gives the body's read error, if any, to the next reader.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	return 0, io.EOF
}
