package oauth

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
)

// maxAuthRetries bounds how often one request is re-sent after a 401: a
// refresh, then (with InlineAuth) a full flow, then one more in case the
// server moved to another authorization server meanwhile.
const maxAuthRetries = 3

// HTTPClient returns a client for srv that adds the bearer token, refreshes
// it on expiry or 401 (one refresh shared by concurrent callers), and marks
// step-up on 403 insufficient_scope. It follows no redirect to another
// origin. With no token the request goes out
// without Authorization so that the server's 401 surfaces. It has no
// overall timeout: GET SSE streams are long-lived.
func (m *Manager) HTTPClient(srv model.Server) *http.Client {
	t := &authTransport{m: m, srv: srv, base: m.opts.Transport}
	if u, err := url.Parse(srv.Config.URL); err == nil {
		t.origin = portOrigin(u)
	}
	return &http.Client{Transport: t, CheckRedirect: t.checkRedirect}
}

// checkRedirect follows redirects on the server's own origin only. Layers
// above (static headers, headersHelper output) and this one add credentials
// inside RoundTrip, after http.Client's redirect header stripping, so a
// redirect elsewhere would carry them all.
func (t *authTransport) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	if !t.forServer(req.URL) {
		return fmt.Errorf("the server redirected to another site (%s); not following it with the server's credentials", req.URL.Redacted())
	}
	return nil
}

type authTransport struct {
	m      *Manager
	srv    model.Server
	base   http.RoundTripper
	origin string // the server's origin; tokens go nowhere else
}

// RoundTrip implements http.RoundTripper.
func (t *authTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if !t.forServer(req.URL) {
		// A redirect elsewhere (or any other host): the token is the
		// server's alone, so nothing of ours goes along.
		return t.base.RoundTrip(req)
	}
	ctx := req.Context()
	if err := bufferBody(req); err != nil {
		return nil, err
	}
	tok, err := t.m.tokens.current(ctx, t.srv)
	if err != nil {
		t.m.log.Debug("no usable token; sending without", "server", t.srv.Name, "err", err)
	}
	resp, err := t.send(req, tok)
	stepUps, retries, refreshed := 0, 0, false
	for {
		if err != nil {
			return nil, err
		}
		switch resp.StatusCode {
		case http.StatusUnauthorized:
			c, _ := parseWWWAuthenticate(resp.Header)
			t.m.disco.noteChallenge(t.srv, c)
			if retries >= maxAuthRetries {
				t.m.MarkNeedsAuth(t.srv)
				return resp, nil
			}
			retries++
			next, viaRefresh := t.recover401(ctx, tok, !refreshed)
			refreshed = refreshed || viaRefresh
			if next == nil {
				t.m.MarkNeedsAuth(t.srv)
				return resp, nil
			}
			discard(resp)
			tok = next
		case http.StatusForbidden:
			c, ok := parseWWWAuthenticate(resp.Header)
			if !ok || (c.Error != "insufficient_scope" && len(c.Scopes) == 0) {
				return resp, nil
			}
			t.m.disco.noteChallenge(t.srv, c)
			t.m.steps.mark(t.srv, tok, c.Scopes)
			if stepUps >= t.m.opts.StepUpLimit {
				t.m.log.Warn("step-up retry limit reached", "server", t.srv.Name, "err", ErrStepUpLimit)
				t.m.steps.noteLacking(t.srv, tok, c.Scopes)
				return resp, nil
			}
			stepUps++
			if !t.m.opts.InlineAuth && !isMachine(t.srv) {
				t.m.steps.noteLacking(t.srv, tok, c.Scopes)
				return resp, nil // the person re-authorizes; Authenticate asks for the union
			}
			next, ierr := t.m.inlineAuth(ctx, t.srv, tok)
			if ierr != nil {
				t.m.log.Warn("step-up authorization failed", "server", t.srv.Name, "err", ierr)
				t.m.steps.noteLacking(t.srv, tok, c.Scopes)
				return resp, nil
			}
			discard(resp)
			tok = next
		default:
			return resp, nil
		}
		resp, err = t.send(req, tok)
	}
}

// forServer reports whether u is on the server's own origin (scheme, host
// and port), the only place its token may be sent.
func (t *authTransport) forServer(u *url.URL) bool {
	return t.origin != "" && portOrigin(u) == t.origin
}

// recover401 tries, in order: a token another caller already refreshed or
// a refresh (or a new machine grant) unless this request already refreshed
// once and was still refused, then, with InlineAuth, the full flow (which
// discovers afresh, so a server that moved to another authorization server
// gets a new registration there). viaRefresh says which way it went.
func (t *authTransport) recover401(ctx context.Context, used *tokenRecord, mayRefresh bool) (next *tokenRecord, viaRefresh bool) {
	if stored := t.m.tokens.reload(ctx, t.srv, used); stored != nil {
		return stored, false // signed in meanwhile, perhaps by another mcpdeck process
	}
	if mayRefresh && (used != nil || isMachine(t.srv)) {
		next, err := t.m.tokens.refresh(ctx, t.srv, used)
		if err == nil {
			return next, true
		}
		t.m.log.Info("token refresh failed", "server", t.srv.Name, "err", err)
	}
	if !t.m.opts.InlineAuth {
		return nil, false
	}
	next, err := t.m.inlineAuth(ctx, t.srv, used)
	if err != nil {
		t.m.log.Warn("authorization failed", "server", t.srv.Name, "err", err)
		return nil, false
	}
	return next, false
}

// send sends req with tok: as a DPoP-bound token with a fresh proof when
// the token is one (retried once when the server asks for a nonce), else
// as a bearer token.
func (t *authTransport) send(req *http.Request, tok *tokenRecord) (*http.Response, error) {
	var key *ecdsa.PrivateKey
	if tok != nil && strings.EqualFold(tok.TokenType, "DPoP") {
		key = dpopKeyOf(tok)
	}
	for attempt := 0; ; attempt++ {
		r := req.Clone(req.Context())
		if req.GetBody != nil {
			b, err := req.GetBody()
			if err != nil {
				return nil, err
			}
			r.Body = b
		}
		switch {
		case key != nil:
			proof, err := dpopProof(key, req.Method, req.URL, tok.AccessToken, t.m.wire.nonces.get(req.URL), t.m.opts.Now())
			if err != nil {
				return nil, err
			}
			r.Header.Set("Authorization", "DPoP "+tok.AccessToken)
			r.Header.Set("DPoP", proof)
		case tok != nil:
			r.Header.Set("Authorization", "Bearer "+tok.AccessToken)
		}
		resp, err := t.base.RoundTrip(r)
		if err != nil {
			var ue *url.Error
			if errors.As(err, &ue) {
				return nil, err
			}
			return nil, fmt.Errorf("%s %s: %w", req.Method, req.URL.Redacted(), err)
		}
		if key == nil {
			return resp, nil
		}
		fresh := t.m.wire.nonces.note(req.URL, resp.Header)
		if attempt > 0 || !fresh || !resourceWantsNonce(resp) {
			return resp, nil
		}
		discard(resp)
	}
}

// bufferBody makes the request body replayable for a retry.
func bufferBody(req *http.Request) error {
	if req.Body == nil || req.Body == http.NoBody || req.GetBody != nil {
		return nil
	}
	b, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return fmt.Errorf("reading request body: %w", err)
	}
	req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
	req.Body, _ = req.GetBody()
	return nil
}

func discard(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
}
