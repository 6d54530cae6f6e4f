package oauth

import (
	"context"
	"errors"
	"fmt"
	"net/url"

	"github.com/mcpdeck/mcpdeck/model"
)

// currentToken is the stored token, refreshed first when it has expired.
// It returns nil (and no error) when there is none: the request then goes
// out without Authorization. Machine grants fetch a token when none exists.
func (m *Manager) currentToken(ctx context.Context, srv model.Server, st *serverState) (*tokenRecord, error) {
	st.mu.Lock()
	loaded, tok := st.loaded, st.tok
	st.mu.Unlock()
	if !loaded {
		var rec tokenRecord
		ok, err := m.loadJSON(ctx, storeKey(srv, kindToken), &rec)
		if err != nil {
			return nil, err
		}
		st.mu.Lock()
		if !st.loaded {
			if ok {
				st.tok = &rec
			}
			st.loaded = true
		}
		tok = st.tok
		st.mu.Unlock()
	}
	if tok == nil && !isMachine(srv) {
		return nil, nil
	}
	if tok != nil && !tok.expired(m.opts.Now()) {
		return tok, nil
	}
	return m.refreshShared(ctx, srv, st, tok)
}

// reload reads the stored token again and adopts it when it is not the one
// that was just refused; nil when there is nothing newer.
func (m *Manager) reload(ctx context.Context, srv model.Server, st *serverState, used *tokenRecord) *tokenRecord {
	var rec tokenRecord
	ok, err := m.loadJSON(ctx, storeKey(srv, kindToken), &rec)
	if err != nil || !ok || (used != nil && rec.AccessToken == used.AccessToken) || rec.expired(m.opts.Now()) {
		return nil
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.tok != nil && st.tok != used && st.tok.AccessToken == rec.AccessToken {
		return st.tok
	}
	if st.tok != nil && st.tok != used {
		return st.tok // another caller in this process already has a newer one
	}
	st.tok, st.loaded = &rec, true
	return st.tok
}

// refreshShared refreshes once for all concurrent callers. used is the
// token the caller had; if another caller already replaced it, that newer
// token is returned without a second refresh.
func (m *Manager) refreshShared(ctx context.Context, srv model.Server, st *serverState, used *tokenRecord) (*tokenRecord, error) {
	st.mu.Lock()
	if st.tok != nil && st.tok != used && !st.tok.expired(m.opts.Now()) {
		t := st.tok
		st.mu.Unlock()
		return t, nil
	}
	if f := st.refresh; f != nil {
		st.mu.Unlock()
		select {
		case <-f.done:
			return f.tok, f.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	f := &flight{done: make(chan struct{})}
	st.refresh = f
	st.mu.Unlock()

	// Not cancelled by one caller's context: the others share the result,
	// and a rotated refresh token must reach the store even when the caller
	// gave up meanwhile (the old one is dead at the authorization server).
	detached := context.WithoutCancel(ctx)
	tok, err := m.doRefresh(detached, srv, st, used)
	if err == nil {
		if serr := m.saveJSON(detached, storeKey(srv, kindToken), tok); serr != nil {
			// Still use it in this process; the next sign-in repairs the store.
			m.log.Warn("refreshed token not saved", "server", srv.Name, "err", serr)
		}
	}
	st.mu.Lock()
	if err == nil {
		st.tok = tok
	}
	st.refresh = nil
	f.tok, f.err = tok, err
	st.mu.Unlock()
	close(f.done)
	if err == nil {
		m.clearNeedsAuth(srv)
	}
	return tok, err
}

// doRefresh uses the refresh token, or repeats a machine grant.
func (m *Manager) doRefresh(ctx context.Context, srv model.Server, st *serverState, used *tokenRecord) (*tokenRecord, error) {
	if isMachine(srv) {
		return m.machineGrant(ctx, srv, st)
	}
	if used == nil || used.RefreshToken == "" {
		return nil, errNoRefresh
	}
	endpoint := used.TokenEndpoint
	if endpoint == "" {
		// A record without its token endpoint: the refresh token and the
		// client secret may go only to the issuer they came from, never
		// to whatever the metadata names now.
		d, err := m.discover(ctx, srv, st)
		if err != nil {
			return nil, err
		}
		if used.Issuer == "" || used.Issuer != d.AS.Issuer {
			return nil, fmt.Errorf("%w: the stored token of %s was issued by %s, not %s: %w",
				ErrNeedsAuth, srv.Name, shownURL(used.Issuer), shownURL(d.AS.Issuer), ErrSecretIssuer)
		}
		endpoint = d.AS.TokenEndpoint
	}
	form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {used.RefreshToken}}
	if used.Resource != "" {
		form.Set("resource", used.Resource)
	}
	ca := clientAuth{ClientID: used.ClientID, Secret: used.ClientSecret, Method: used.AuthMethod, DPoP: dpopKeyOf(used)}
	tr, err := m.tokenRequest(ctx, endpoint, form, ca, "token refresh")
	if err != nil {
		var oe *OAuthError
		if errors.As(err, &oe) && oe.Code == "invalid_grant" {
			// The refresh token is dead: forget it so we stop trying.
			_ = m.store.Delete(ctx, storeKey(srv, kindToken))
			st.mu.Lock()
			if st.tok == used {
				st.tok = nil
			}
			st.mu.Unlock()
			return nil, fmt.Errorf("%w: %w", ErrNeedsAuth, err)
		}
		return nil, err
	}
	m.log.Info("token refreshed", "server", srv.Name)
	return m.record(tr, nil, used), nil
}

// Signout is what Logout did with a server's tokens.
type Signout int

const (
	// SignoutNoTokens: there were no tokens to delete.
	SignoutNoTokens Signout = iota
	// SignoutDeleted: the tokens were deleted; the authorization server
	// offers no revocation, so they stay valid there until they expire.
	SignoutDeleted
	// SignoutRevoked: the authorization server revoked the tokens, and
	// they were deleted.
	SignoutRevoked
)

// Logout revokes the server's tokens (RFC 7009) when the authorization
// server offers revocation, and deletes them; it says which it did. The
// tokens are deleted even when revocation fails; the error then says so.
func (m *Manager) Logout(ctx context.Context, srv model.Server) (Signout, error) {
	st := m.state(srv)
	st.flowMu.Lock()
	defer st.flowMu.Unlock()
	var rec tokenRecord
	ok, loadErr := m.loadJSON(ctx, storeKey(srv, kindToken), &rec)
	var revokeErr error
	if ok && rec.RevocationEndpoint != "" {
		ca := clientAuth{ClientID: rec.ClientID, Secret: rec.ClientSecret, Method: rec.AuthMethod}
		if rec.AuthMethod == authJWT {
			ca.Method = authNone // no assertion for revocation; identify by client_id
		}
		if rec.RefreshToken != "" {
			revokeErr = m.revoke(ctx, rec.RevocationEndpoint, rec.RefreshToken, "refresh_token", ca)
		}
		if err := m.revoke(ctx, rec.RevocationEndpoint, rec.AccessToken, "access_token", ca); err != nil {
			revokeErr = errors.Join(revokeErr, err)
		}
	}
	delErr := m.store.Delete(ctx, storeKey(srv, kindToken))
	if errors.Is(delErr, ErrNotFound) {
		delErr = nil
	}
	st.mu.Lock()
	st.tok, st.loaded, st.stepUpScopes = nil, true, nil
	st.mu.Unlock()
	switch {
	case delErr != nil:
		return SignoutNoTokens, fmt.Errorf("logging out of %s: %w", srv.Name, delErr)
	case loadErr != nil:
		return SignoutNoTokens, fmt.Errorf("logging out of %s: %w", srv.Name, loadErr)
	case revokeErr != nil:
		return SignoutDeleted, fmt.Errorf("logged out of %s locally, but the server did not confirm revocation: %w", srv.Name, revokeErr)
	}
	out := SignoutNoTokens
	switch {
	case ok && rec.RevocationEndpoint != "":
		out = SignoutRevoked
	case ok:
		out = SignoutDeleted
	}
	m.log.Info("logged out", "server", srv.Name, "revoked", out == SignoutRevoked)
	return out, nil
}
