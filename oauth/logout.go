package oauth

import (
	"context"
	"errors"
	"fmt"

	"github.com/mcpdeck/mcpdeck/model"
)

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
func (m *Manager) Logout(ctx context.Context, srv model.Server) (out Signout, err error) {
	m.serially(srv, func() {
		out, err = m.tokens.signOut(ctx, srv)
		m.steps.clearPending(srv)
	})
	if err == nil {
		m.log.Info("logged out", "server", srv.Name, "revoked", out == SignoutRevoked)
	}
	return out, err
}

// signOut revokes and deletes the stored token of srv, and forgets the
// one in use.
func (t *tokens) signOut(ctx context.Context, srv model.Server) (Signout, error) {
	var rec tokenRecord
	ok, loadErr := t.vault.loadJSON(ctx, storeKey(srv, kindToken), &rec)
	var revokeErr error
	if ok && rec.RevocationEndpoint != "" {
		ca := clientAuth{ClientID: rec.ClientID, Secret: rec.ClientSecret, Method: rec.AuthMethod}
		if rec.AuthMethod == authJWT {
			ca.Method = authNone // no assertion for revocation; identify by client_id
		}
		if rec.RefreshToken != "" {
			revokeErr = t.wire.revoke(ctx, rec.RevocationEndpoint, rec.RefreshToken, "refresh_token", ca)
		}
		if err := t.wire.revoke(ctx, rec.RevocationEndpoint, rec.AccessToken, "access_token", ca); err != nil {
			revokeErr = errors.Join(revokeErr, err)
		}
	}
	delErr := t.vault.remove(ctx, storeKey(srv, kindToken))
	if errors.Is(delErr, ErrNotFound) {
		delErr = nil
	}
	t.adopt(srv, nil)
	switch {
	case delErr != nil:
		return SignoutNoTokens, fmt.Errorf("logging out of %s: %w", srv.Name, delErr)
	case loadErr != nil:
		return SignoutNoTokens, fmt.Errorf("logging out of %s: %w", srv.Name, loadErr)
	case revokeErr != nil:
		return SignoutDeleted, fmt.Errorf("logged out of %s locally, but the server did not confirm revocation: %w", srv.Name, revokeErr)
	}
	switch {
	case ok && rec.RevocationEndpoint != "":
		return SignoutRevoked, nil
	case ok:
		return SignoutDeleted, nil
	}
	return SignoutNoTokens, nil
}
