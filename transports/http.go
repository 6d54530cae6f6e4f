package transports

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/lock"
)

// noResponseTimeout disables mcp-go's own SSE response wait (60 s, which
// would cut long tool calls); the caller's context bounds calls instead.
const noResponseTimeout = 100 * 365 * 24 * time.Hour

// httpClientFor returns a copy of opts.HTTPClient (or a fresh client with its
// own connection pool) whose transport is our roundTripper, its bodies held
// to the message size limit (limitBodies). The copy's Timeout is zero: a client-wide timeout would cut SSE streams.
func httpClientFor(c *Conn, cfg model.ServerConfig, opts Options, legacySSE bool) (*http.Client, func()) {
	hc := &http.Client{}
	idle := func() {}
	if opts.HTTPClient != nil {
		*hc = *opts.HTTPClient //nolint:govet // copying the struct is how one derives a client
	}
	base := hc.Transport
	if tr, ok := editorHTTPTransport(cfg, opts.socketTables); ok {
		base, idle = tr, tr.CloseIdleConnections
	} else if base == nil {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		base, idle = tr, tr.CloseIdleConnections
	}
	c.rt = &roundTripper{
		base:       base,
		timeout:    opts.RequestTimeout,
		headers:    cfg.Headers,
		headerFunc: opts.HeaderFunc,
		legacySSE:  legacySSE,
		onLost:     c.lost,
	}
	hc.Transport = limitBodies(c.rt, c.name, opts.maxMessage(), c.lost)
	hc.Timeout = 0
	if hc.CheckRedirect == nil {
		hc.CheckRedirect = sameOriginRedirects
	}
	return hc, idle
}

// sameOriginRedirects follows a server's redirects only within its own
// origin: the round tripper adds the static and helper headers (API keys,
// bearer tokens) to every request, so a redirect elsewhere would hand them
// to another host.
func sameOriginRedirects(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	if from := via[0].URL; req.URL.Scheme != from.Scheme || req.URL.Host != from.Host {
		return fmt.Errorf("refused a redirect from %s to %s://%s: the server's headers are not sent to another origin",
			from.Host, req.URL.Scheme, req.URL.Host)
	}
	return nil
}

// openHTTP builds a streamable HTTP client with continuous listening, so
// that on a session older than 2026-07-28 list_changed notifications arrive
// between requests on the GET stream (mcp-go opens it only after the
// handshake, and not on a 2026-07-28 session, where the subscriptions/listen
// stream of listen.go takes its place).
func openHTTP(ctx context.Context, c *Conn, cfg model.ServerConfig, opts Options) error {
	hc, idle := httpClientFor(c, cfg, opts, false)
	c.refusals = &refusalRecorder{next: hc.Transport, hc: hc, url: cfg.URL}
	life, cancel := context.WithCancel(context.WithoutCancel(ctx))
	notifier := &cancelNotifier{next: c.refusals, life: life}
	hc.Transport = notifier
	tr, err := transport.NewStreamableHTTP(cfg.URL,
		transport.WithHTTPBasicClient(hc),
		// Deprecated for 2026-07-28, whose sessions mcp-go keeps off the GET
		// stream; older sessions need it (see above).
		transport.WithContinuousListening(), //nolint:staticcheck // see above
		transport.WithHTTPLogger(quietLogger()),
	)
	if err != nil {
		cancel()
		return err
	}
	c.client = client.NewClient(tapped(&sessionCodeTransport{HTTPConnection: tr, bidi: tr}, c.rec), clientOptions(opts)...)
	c.shutdown = func(context.Context) error {
		err := c.client.Close() // DELETE, bounded by the Close context via rt.closing
		cancel()
		notifier.close()
		idle()
		return err
	}
	return c.client.Start(life)
}

// openSSE builds a legacy HTTP+SSE client. Start opens the event stream: it
// gets a context that lives until Close, but ctx still bounds the wait for
// the endpoint event.
func openSSE(ctx context.Context, c *Conn, cfg model.ServerConfig, opts Options) error {
	hc, idle := httpClientFor(c, cfg, opts, true)
	c.sessionIsStream = true
	life, cancel := context.WithCancel(context.WithoutCancel(ctx))
	reqs := &sseRequests{next: hc.Transport, ctx: life, client: hc, answers: newAnswering()}
	sseClient := *hc //nolint:govet // copying the struct is how one derives a client
	sseClient.Transport = reqs
	hc = &sseClient
	tr, err := transport.NewSSE(cfg.URL,
		transport.WithHTTPClient(hc),
		transport.WithEndpointTimeout(opts.RequestTimeout),
		transport.WithResponseTimeout(noResponseTimeout),
		transport.WithSSELogger(quietLogger()),
	)
	if err != nil {
		cancel()
		return err
	}
	lock.With(&reqs.mu, func() {
		reqs.endpoint = func() string {
			if u := tr.GetEndpoint(); u != nil {
				return u.String()
			}
			return ""
		}
	})
	c.client = client.NewClient(tapped(&sessionCodeTransport{HTTPConnection: tr, bidi: reqs, cancels: true}, c.rec), clientOptions(opts)...)
	tr.SetConnectionLostHandler(func(err error) {
		c.lost(fmt.Errorf("%w: event stream ended: %w", ErrConnectionLost, err))
		// mcp-go leaves requests in flight waiting for answers that can no
		// longer come; closing the transport fails them at once.
		_ = tr.Close()
	})
	c.shutdown = func(context.Context) error {
		err := c.client.Close()
		cancel()
		idle()
		return err
	}
	stop := context.AfterFunc(ctx, cancel)
	err = c.client.Start(life)
	if !stop() && err == nil {
		err = ctx.Err()
	}
	return err
}

// sessionCodeTransport wraps an mcp-go HTTP transport. It turns a JSON-RPC
// -32001 error answer (which mcp-go would reduce to its message) into an
// error matching ErrSessionExpired, names every message in the standard
// headers (stdheaders.go), and asks a discovery probe once more when the
// server refused it while naming the offered version as supported. It
// forwards the optional interfaces the client looks for.
type sessionCodeTransport struct {
	transport.HTTPConnection
	bidi    requestHandlerSetter // takes the server→client request handler
	version versionTracker
	// cancels says a request whose context ends before its answer must be
	// followed by notifications/cancelled (legacy SSE: mcp-go sends none
	// over any HTTP transport; streamable HTTP has cancelNotifier).
	cancels bool
}

// initializeMarker tells our round tripper that a POST carries initialize,
// which must never reuse the old session id (after a -32001 expiry mcp-go
// still holds it).
const initializeMarker = "X-Mcpdeck-Initialize"

// SendRequest converts -32001 answers.
func (s *sessionCodeTransport) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	req = withStandardHeaders(req)
	if req.Method == string(mcp.MethodInitialize) {
		req.Header.Set(initializeMarker, "1")
	}
	resp, err := s.HTTPConnection.SendRequest(ctx, req)
	if err != nil && ctx.Err() != nil && s.cancels {
		s.sendCancelled(ctx, req)
	}
	if err != nil && ctx.Err() == nil {
		err = answerStreamEnded(err)
	}
	if err == nil && refusedOwnVersion(req, resp, s.version.get()) {
		resp, err = s.HTTPConnection.SendRequest(ctx, req)
	}
	if err == nil && resp != nil && resp.Error != nil && resp.Error.Code == SessionExpiredCode {
		return nil, fmt.Errorf("%w: %s", ErrSessionExpired, resp.Error.Message)
	}
	return resp, err
}

// answerStreamEnded names what mcp-go reports, as the bare text
// "unexpected nil response", when the event stream a request's answer was
// due on ended before the answer: the server went away mid-call. It then
// matches ErrConnectionLost. Other errors pass unchanged.
func answerStreamEnded(err error) error {
	if err.Error() != "unexpected nil response" {
		return err
	}
	return fmt.Errorf("%w: the event stream carrying the answer ended before it (%w)", ErrConnectionLost, err)
}

// SendNotification names the notification's method for the round tripper.
func (s *sessionCodeTransport) SendNotification(ctx context.Context, n mcp.JSONRPCNotification) error {
	return s.HTTPConnection.SendNotification(noteMethod(ctx, n.Method), n)
}

// SetProtocolVersion remembers the version the requests carry.
func (s *sessionCodeTransport) SetProtocolVersion(v string) {
	s.version.set(v)
	s.HTTPConnection.SetProtocolVersion(v)
}

// requestHandlerSetter is what answers server→client requests: mcp-go's
// streamable HTTP transport, or sseRequests for legacy SSE.
type requestHandlerSetter interface {
	SetRequestHandler(transport.RequestHandler)
}

// SetRequestHandler forwards to whatever answers server→client requests.
func (s *sessionCodeTransport) SetRequestHandler(h transport.RequestHandler) {
	if s.bidi != nil {
		s.bidi.SetRequestHandler(h)
	}
}

// RequiresLegacyProtocol hides mcp-go's continuous-listening constraint,
// which would skip the server/discover probe and so never reach 2026-07-28:
// the transport itself opens the GET stream only on an older session.
func (s *sessionCodeTransport) RequiresLegacyProtocol() bool { return false }

// quietLogger drops mcp-go's transport logs: what matters reaches us as
// errors, and its logs would scribble over the TUI.
func quietLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }
