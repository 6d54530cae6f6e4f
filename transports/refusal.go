package transports

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/lock"
)

// maxRefusalBody bounds how much of a refused handshake's body is kept.
const maxRefusalBody = 64 << 10

// sseProbeTimeout bounds the GET that checks whether a server that refused
// the streamable HTTP handshake is an SSE-only server.
const sseProbeTimeout = 5 * time.Second

// trySSE is the advice for a server that refused streamable HTTP and may
// speak only legacy SSE.
const trySSE = `it may only speak the older SSE transport (try "type": "` + string(model.TransportSSE) + `")`

// RefusedError is a streamable HTTP handshake the server refused with a 4xx
// status. mcp-go reports every such refusal as "likely a legacy SSE server"
// and drops the body; this keeps the status and the server's own message,
// and says SSE only when the server answered like an SSE-only server: 405 to
// the POST, or an event stream to a GET of the same URL.
type RefusedError struct {
	Status  int
	URL     string // where, credentials removed
	Message string // the JSON-RPC error message or the body's text, one line
	SSEOnly bool
	Err     error // the JSON-RPC error the body carried, if any
}

// Error leads with the status and where ("HTTP 404 Not Found at
// https://host/mcp"), then the server's message, then the hint.
func (e *RefusedError) Error() string {
	s := fmt.Sprintf("the server answered HTTP %d", e.Status)
	if e.URL != "" {
		s = strings.TrimSpace(fmt.Sprintf("HTTP %d %s", e.Status, http.StatusText(e.Status))) + " at " + e.URL
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	if e.SSEOnly {
		s += "; " + trySSE
	}
	return s
}

// Unwrap returns the JSON-RPC error of the body.
func (e *RefusedError) Unwrap() error { return e.Err }

// class places the refusal: 401/403 are about credentials, anything else
// means this URL does not take our handshake, which retrying cannot change.
func (e *RefusedError) class() Class {
	if e.Status == http.StatusUnauthorized || e.Status == http.StatusForbidden {
		return ClassAuth
	}
	return ClassTerminal
}

// refusalRecorder sits in front of the round tripper of a streamable HTTP
// connection and keeps the status and body of the last refused initialize
// POST, for explain.
type refusalRecorder struct {
	next http.RoundTripper
	hc   *http.Client // for the SSE probe
	url  string

	mu   sync.Mutex
	last *refusal
}

type refusal struct {
	status int
	body   []byte
}

// RoundTrip implements http.RoundTripper.
func (r *refusalRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	isInit := req.Method == http.MethodPost && req.Header.Get(initializeMarker) != ""
	isDiscover := req.Method == http.MethodPost && req.Header.Get("Mcp-Method") == string(mcp.MethodServerDiscover)
	resp, err := r.next.RoundTrip(req)
	if err == nil && isDiscover && resp.StatusCode == http.StatusOK {
		return notDiscoverAnswer(resp), nil
	}
	if err != nil || !isInit || resp.StatusCode < 400 || resp.StatusCode >= 500 {
		return resp, err
	}
	body, rerr := io.ReadAll(io.LimitReader(resp.Body, maxRefusalBody))
	_ = resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	if rerr != nil {
		return resp, nil
	}
	lock.With(&r.mu, func() { r.last = &refusal{status: resp.StatusCode, body: body} })
	return resp, nil
}

// take returns and forgets the last refusal.
func (r *refusalRecorder) take() (f *refusal) {
	lock.With(&r.mu, func() { f, r.last = r.last, nil })
	return f
}

// explain replaces mcp-go's "likely a legacy SSE server" with what the
// server said. Other errors pass unchanged.
func (r *refusalRecorder) explain(ctx context.Context, err error) error {
	f := r.take()
	if f == nil || !errors.Is(err, transport.ErrLegacySSEServer) {
		return err
	}
	e := &RefusedError{Status: f.status, URL: redactedURL(r.url)}
	var msg struct {
		Error *mcp.JSONRPCErrorDetails `json:"error"`
	}
	if json.Unmarshal(f.body, &msg) == nil && msg.Error != nil {
		e.Message = msg.Error.Message
		e.Err = msg.Error.AsError()
	} else {
		e.Message = strings.TrimSpace(string(f.body))
	}
	e.Message = clip(e.Message)
	switch {
	case e.Err != nil || f.status == http.StatusUnauthorized || f.status == http.StatusForbidden:
	case f.status == http.StatusMethodNotAllowed:
		e.SSEOnly = true
	default:
		e.SSEOnly = r.servesEventStream(ctx)
	}
	return e
}

// servesEventStream reports whether a GET of the server's URL opens an
// event stream, as the endpoint of an SSE-only server does.
func (r *refusalRecorder) servesEventStream(ctx context.Context) bool {
	ctx, cancel := context.WithTimeout(ctx, sseProbeTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.url, nil)
	if err != nil {
		return false
	}
	req.Header.Set("Accept", "text/event-stream")
	resp, err := r.hc.Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	return resp.StatusCode == http.StatusOK && mt == "text/event-stream"
}

// humanizeRefusal renders protocol version disagreements and refused HTTP
// handshakes, whose own text is already the sentence.
func humanizeRefusal(err error) (string, bool) {
	var version *VersionError
	if errors.As(err, &version) {
		return version.Error(), true
	}
	var refused *RefusedError
	if errors.As(err, &refused) {
		return refused.Error(), true
	}
	return "", false
}

// notDiscoverAnswer turns a JSON success answer to server/discover that
// names no supported versions into a JSON-RPC error. Some older servers
// answer every method they do not know with an empty result; mcp-go would
// take that for a 2026-07-28 server and never send initialize.
func notDiscoverAnswer(resp *http.Response) *http.Response {
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "application/json" {
		return resp
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxRefusalBody+1))
	_ = resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil || len(body) > maxRefusalBody {
		return resp
	}
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Result *struct {
			SupportedVersions []string `json:"supportedVersions"`
		} `json:"result"`
	}
	if json.Unmarshal(body, &msg) != nil || msg.Result == nil || len(msg.Result.SupportedVersions) > 0 {
		return resp
	}
	id := msg.ID
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	body = []byte(`{"jsonrpc":"2.0","id":` + string(id) + `,"error":{"code":-32601,"message":"the answer to server/discover names no supported versions"}}`)
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	resp.Header.Del("Content-Length")
	return resp
}

// redactedURL is raw without user info, query or fragment (any of which
// may carry a credential), for an error sentence.
func redactedURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	u.User, u.RawQuery, u.ForceQuery, u.Fragment = nil, "", false, ""
	return u.String()
}
