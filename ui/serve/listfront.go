package serve

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"mime"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/engine/lock"
)

// The fronts below stand before mcp-go on each transport and answer plain
// list requests from the cache (listcache.go); every other message passes
// on to mcp-go unchanged.

// stdioOut is the agent's stdout shared by mcp-go and the cache: mcp-go
// writes each message in one Write, the cache's reply is written whole
// under the same lock, so lines never interleave. After close, writes are
// dropped (the front's reader may outlive ServeStdio by one line).
//
// closed is apart from the lock: a write blocked on an agent that stopped
// reading holds mu for as long as the agent lets it, and close must not
// wait for it, or ServeStdio never returns.
type stdioOut struct {
	mu     sync.Mutex
	w      io.Writer
	closed atomic.Bool
}

func (o *stdioOut) Write(p []byte) (n int, err error) {
	if o.closed.Load() {
		return 0, io.ErrClosedPipe
	}
	lock.With(&o.mu, func() {
		if o.closed.Load() {
			n, err = 0, io.ErrClosedPipe
			return
		}
		n, err = o.w.Write(p)
	})
	return n, err
}

// answer writes the cache's reply to msg, if it has one, in one piece.
func (o *stdioOut) answer(l *lists, msg []byte) bool {
	id, res, ok := l.cachedList(msg)
	if !ok {
		return false
	}
	lock.With(&o.mu, func() {
		if !o.closed.Load() {
			writeReply(o.w, id, res)
		}
	})
	return true
}

// close drops every later write at once, without waiting for one under way.
func (o *stdioOut) close() { o.closed.Store(true) }

// stdioFront reads the agent's lines from in: the cache answers plain list
// requests on out, the rest go on to mcp-go through the returned reader.
// It ends when in ends (or mcp-go stops reading: stop closes the pipe).
func (g *Gateway) stdioFront(in io.Reader, out *stdioOut) (rest io.Reader, stop func()) {
	pr, pw := io.Pipe()
	go func() {
		r := bufio.NewReader(in)
		for {
			line, err := r.ReadBytes('\n')
			if len(line) > 0 && !out.answer(g.lists, line) {
				if _, werr := pw.Write(line); werr != nil {
					return
				}
			}
			if err != nil {
				if errors.Is(err, io.EOF) {
					err = nil
				}
				_ = pw.CloseWithError(err)
				return
			}
		}
	}()
	return pr, func() { _ = pr.Close() }
}

// httpFront answers a POST of a plain list request from the cache when
// mcp-go would answer it with JSON anyway: a JSON body, a session this
// gateway registered (initialized over this transport) and a protocol
// version before 2026-07-28. Anything else goes to next (mcp-go), whose
// answer is the same.
func (g *Gateway) httpFront(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.ContentLength < 0 || r.ContentLength > maxPlainList || !g.lists.listed() || !g.legacySession(r) {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			next.ServeHTTP(w, r) // mcp-go says what went wrong with the body
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		id, res, ok := g.lists.cachedList(body)
		if !ok {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		writeReply(w, id, res)
	})
}

// legacySession reports whether r is JSON on a session this gateway
// registered, under a protocol version before 2026-07-28 (or none, which
// mcp-go takes as the session's).
func (g *Gateway) legacySession(r *http.Request) bool {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return false
	}
	if v := r.Header.Get(mcp.HeaderProtocolVersion); v != "" && (!mcp.IsValidProtocolVersion(v) || mcp.IsModernProtocol(v)) {
		return false
	}
	id := r.Header.Get(server.HeaderKeySessionID)
	if id == "" {
		return false
	}
	return g.sessions.has(id)
}
