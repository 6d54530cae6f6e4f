package oauth

import (
	"context"
	"fmt"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
)

// Authenticate runs the full flow for srv: interactive authorization code
// with PKCE (showURL gets the URL to show for copying, the browser is
// opened too), or the configured machine-to-machine grant. On success the
// token is stored and the needs-auth mark cleared.
func (m *Manager) Authenticate(ctx context.Context, srv model.Server, showURL func(string)) (err error) {
	if t := srv.Config.EffectiveType(); !t.Info().OAuth {
		return fmt.Errorf("server %s uses %s: %w", srv.Name, t, model.ErrNoSignIn)
	}
	if untrusted(srv) {
		// Discovery would contact a server the person has not approved.
		return ErrUntrusted // callers name the server
	}
	m.serially(srv, func() {
		var rec *tokenRecord
		if rec, err = m.obtain(ctx, srv, showURL); err == nil {
			err = m.adopt(ctx, srv, rec)
		}
	})
	return err // the caller names the server ("authenticate X: …"), once
}

// inlineAuth runs the flow from inside a request unless another caller
// already replaced the token we used.
func (m *Manager) inlineAuth(ctx context.Context, srv model.Server, used *tokenRecord) (rec *tokenRecord, err error) {
	m.serially(srv, func() {
		if cur := m.tokens.inUse(srv); cur != nil && cur != used && len(m.steps.pending(srv)) == 0 {
			rec = cur
			return
		}
		if rec, err = m.obtain(ctx, srv, m.opts.ShowURL); err != nil {
			return
		}
		if err = m.adopt(ctx, srv, rec); err != nil {
			rec = nil
		}
	})
	return rec, err
}

// obtain gets a fresh token by the server's configured grant.
func (m *Manager) obtain(ctx context.Context, srv model.Server, showURL func(string)) (*tokenRecord, error) {
	switch g := oauthConfig(srv).Grant; g {
	case GrantAuthorizationCode:
		return m.code.run(ctx, srv, showURL)
	case GrantClientCredentials, GrantCrossApp, GrantJWTBearer:
		return m.machine.grant(ctx, srv)
	default:
		return nil, fmt.Errorf("%w: unknown oauth.grant %q (use client_credentials, enterprise_managed (also called xaa) or jwt_bearer, or leave it out)", ErrConfig, g)
	}
}

// adopt stores a new token and makes it current.
func (m *Manager) adopt(ctx context.Context, srv model.Server, rec *tokenRecord) error {
	if err := m.vault.saveJSON(ctx, storeKey(srv, kindToken), rec); err != nil {
		return err
	}
	m.tokens.adopt(srv, rec)
	m.steps.signedIn(srv)
	m.cache.unmark(srv)
	m.log.Info("authenticated", "server", srv.Name, "scopes", strings.Join(rec.Scopes, " "))
	return nil
}
