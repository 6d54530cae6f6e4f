package transports

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// roundTripper wraps the HTTP transport of SSE and streamable HTTP
// connections. It adds static and dynamic headers, applies the per-request
// timeout (up to the response headers for SSE bodies, which then live as
// long as the caller's context; over the whole exchange otherwise), turns a
// 404 on a legacy SSE POST into ErrSessionExpired, and reports terminal
// network errors (refused, unreachable, DNS) as a lost connection.
type roundTripper struct {
	base       http.RoundTripper
	timeout    time.Duration
	headers    map[string]string
	headerFunc func(ctx context.Context) (map[string]string, error)
	legacySSE  bool
	onLost     func(error)

	closing atomic.Pointer[context.Context] // set by Conn.Close: bounds the DELETE

	// streamFailures counts event-stream GETs that failed in a row; mcp-go
	// retries them every second forever, we call it lost at maxStreamFailures.
	streamFailures atomic.Int32

	// listenStatus is the HTTP status of the last subscriptions/listen POST
	// (see listen.go), 0 before one was answered.
	listenStatus atomic.Int32
}

// maxStreamFailures failed event-stream reconnects in a row mean the
// connection is lost.
const maxStreamFailures = 3

// noteStream tracks event-stream GET outcomes (err or status).
func (rt *roundTripper) noteStream(req *http.Request, status int, err error) {
	if req.Method != http.MethodGet || rt.onLost == nil || req.Context().Err() != nil {
		return
	}
	if err == nil && status < 500 {
		rt.streamFailures.Store(0)
		return
	}
	if rt.streamFailures.Add(1) == maxStreamFailures {
		if err == nil {
			err = &HTTPStatusError{Method: req.Method, URL: req.URL.Redacted(), Status: status}
		}
		rt.onLost(fmt.Errorf("%w: the event stream failed %d times in a row: %w", ErrConnectionLost, maxStreamFailures, err))
	}
}

// RoundTrip implements http.RoundTripper.
func (rt *roundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	methodHeaders(req)
	if req.Header.Get(initializeMarker) != "" {
		req.Header.Del(initializeMarker)
		req.Header.Del("Mcp-Session-Id")
	}
	for k, v := range rt.headers {
		if !isProtocolHeader(k) {
			req.Header.Set(k, v)
		}
	}
	if rt.headerFunc != nil {
		h, err := rt.headerFunc(req.Context())
		if err != nil {
			return nil, fmt.Errorf("headers helper failed: %w", err)
		}
		for k, v := range h {
			if !isProtocolHeader(k) {
				req.Header.Set(k, v)
			}
		}
	}
	ctx, cancel := context.WithCancelCause(req.Context())
	if c := rt.closing.Load(); c != nil && req.Method == http.MethodDelete {
		stop := context.AfterFunc(*c, func() { cancel(context.Cause(*c)) })
		defer stop()
	}
	timeoutErr := &RequestTimeoutError{Method: req.Method, URL: req.URL.Redacted(), After: rt.timeout}
	timer := time.AfterFunc(rt.timeout, func() { cancel(timeoutErr) })
	resp, err := rt.base.RoundTrip(req.WithContext(ctx))
	if err != nil {
		timer.Stop()
		cause := context.Cause(ctx)
		cancel(nil)
		if errors.Is(cause, timeoutErr) {
			err = timeoutErr
		}
		if Classify(err) == ClassTerminal && rt.onLost != nil && req.Context().Err() == nil {
			rt.onLost(err)
		}
		rt.noteStream(req, 0, err)
		return nil, err
	}
	rt.noteStream(req, resp.StatusCode, nil)
	if req.Header.Get(mcp.HeaderMethod) == string(mcp.MethodSubscriptionsListen) {
		rt.listenStatus.Store(int32(resp.StatusCode)) //nolint:gosec // an HTTP status fits
	}
	if rt.legacySSE && req.Method == http.MethodPost && resp.StatusCode == http.StatusNotFound {
		timer.Stop()
		_ = resp.Body.Close()
		cancel(nil)
		return nil, fmt.Errorf("%w: %w", ErrSessionExpired,
			&HTTPStatusError{Method: req.Method, URL: req.URL.Redacted(), Status: resp.StatusCode})
	}
	streaming := false
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt == "text/event-stream" {
		streaming = true
		timer.Stop() // the stream lives as long as the caller's context
	}
	resp.Body = &timedBody{rc: resp.Body, ctx: ctx, cancel: cancel, timer: timer, timeoutErr: timeoutErr, streaming: streaming}
	return resp, nil
}

func isProtocolHeader(k string) bool {
	k = http.CanonicalHeaderKey(k)
	return k == "Mcp-Session-Id" || k == "Mcp-Protocol-Version" || strings.HasPrefix(k, "Last-Event-")
}

// timedBody releases the request's context when the body is closed and
// reports our timeout instead of a bare "context canceled".
type timedBody struct {
	rc         io.ReadCloser
	ctx        context.Context
	cancel     context.CancelCauseFunc
	timer      *time.Timer
	timeoutErr *RequestTimeoutError
	streaming  bool
	once       sync.Once
}

// Read reports our timeout instead of the context's cancellation. The
// message size limit is applied around this body (limitBodies).
func (b *timedBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if err != nil && !errors.Is(err, io.EOF) && errors.Is(context.Cause(b.ctx), b.timeoutErr) {
		err = b.timeoutErr
	}
	return n, err
}

func (b *timedBody) Close() error {
	err := b.rc.Close()
	b.once.Do(func() {
		b.timer.Stop()
		b.cancel(nil)
	})
	return err
}
