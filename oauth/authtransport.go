package oauth

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/policy"
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
	t := &authTransport{m: m, srv: srv, st: m.state(srv), base: m.opts.Transport}
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
	st     *serverState
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
	tok, err := t.m.currentToken(ctx, t.srv, t.st)
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
			t.st.noteChallenge(c)
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
			t.st.noteChallenge(c)
			t.st.markStepUp(tok, c.Scopes)
			if stepUps >= t.m.opts.StepUpLimit {
				t.m.log.Warn("step-up retry limit reached", "server", t.srv.Name, "err", ErrStepUpLimit)
				t.st.noteLacking(tok, c.Scopes)
				return resp, nil
			}
			stepUps++
			if !t.m.opts.InlineAuth && !isMachine(t.srv) {
				t.st.noteLacking(tok, c.Scopes)
				return resp, nil // the person re-authorizes; Authenticate asks for the union
			}
			next, ierr := t.m.inlineAuth(ctx, t.srv, t.st, tok)
			if ierr != nil {
				t.m.log.Warn("step-up authorization failed", "server", t.srv.Name, "err", ierr)
				t.st.noteLacking(tok, c.Scopes)
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

// portOrigin is scheme://host:port with the default port spelled out, so
// that https://h and https://h:443 are one origin; ws and wss count as
// http and https (policy.HTTPScheme).
func portOrigin(u *url.URL) string {
	scheme := policy.HTTPScheme(u.Scheme)
	port := u.Port()
	if port == "" {
		port = policy.DefaultPort(scheme)
	}
	if u.Hostname() == "" {
		return ""
	}
	return scheme + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}

// recover401 tries, in order: a token another caller already refreshed or
// a refresh (or a new machine grant) unless this request already refreshed
// once and was still refused, then, with InlineAuth, the full flow (which
// discovers afresh, so a server that moved to another authorization server
// gets a new registration there). viaRefresh says which way it went.
func (t *authTransport) recover401(ctx context.Context, used *tokenRecord, mayRefresh bool) (next *tokenRecord, viaRefresh bool) {
	if stored := t.m.reload(ctx, t.srv, t.st, used); stored != nil {
		return stored, false // signed in meanwhile, perhaps by another mcpdeck process
	}
	if mayRefresh && (used != nil || isMachine(t.srv)) {
		next, err := t.m.refreshShared(ctx, t.srv, t.st, used)
		if err == nil {
			return next, true
		}
		t.m.log.Info("token refresh failed", "server", t.srv.Name, "err", err)
	}
	if !t.m.opts.InlineAuth {
		return nil, false
	}
	next, err := t.m.inlineAuth(ctx, t.srv, t.st, used)
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
			proof, err := dpopProof(key, req.Method, req.URL, tok.AccessToken, t.m.nonces.get(req.URL), t.m.opts.Now())
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
		fresh := t.m.nonces.note(req.URL, resp.Header)
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

func isMachine(srv model.Server) bool {
	g := oauthConfig(srv).Grant
	return g == GrantClientCredentials || g == GrantCrossApp || g == GrantJWTBearer
}

// noteChallenge remembers the hints of a Bearer challenge for discovery.
func (st *serverState) noteChallenge(c challenge) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.challenged = true
	if c.ResourceMetadata != "" {
		st.hintMetadata = c.ResourceMetadata
	}
	if len(c.Scopes) > 0 {
		st.hintScopes = c.Scopes
	}
}

// markStepUp records the union of the token's scopes and the new ones.
func (st *serverState) markStepUp(used *tokenRecord, scopes []string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	var have []string
	if used != nil {
		have = used.Scopes
	}
	st.stepUpScopes = unionScopes(st.stepUpScopes, have, scopes)
}

// NeedsStepUp reports the scopes a server asked for with 403
// insufficient_scope that the next Authenticate will request (nil when none).
func (m *Manager) NeedsStepUp(srv model.Server) []string {
	st := m.state(srv)
	st.mu.Lock()
	defer st.mu.Unlock()
	return slices.Clone(st.stepUpScopes)
}

// inlineAuth runs the flow from inside a request unless another caller
// already replaced the token we used.
func (m *Manager) inlineAuth(ctx context.Context, srv model.Server, st *serverState, used *tokenRecord) (*tokenRecord, error) {
	st.flowMu.Lock()
	defer st.flowMu.Unlock()
	st.mu.Lock()
	cur := st.tok
	pendingStepUp := len(st.stepUpScopes) > 0
	st.mu.Unlock()
	if cur != nil && cur != used && !pendingStepUp {
		return cur, nil
	}
	rec, err := m.obtain(ctx, srv, st, m.opts.ShowURL)
	if err != nil {
		return nil, err
	}
	if err := m.adopt(ctx, srv, st, rec); err != nil {
		return nil, err
	}
	return rec, nil
}
