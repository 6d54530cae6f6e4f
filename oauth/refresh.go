package oauth

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/lock"
)

// tokens is the tokens-and-refresh part: per server, the token in use
// (read from the vault once, then kept), its refresh, once for every
// concurrent caller, and its revocation at sign-out.
type tokens struct {
	vault *vault
	wire  *wire
	disco *discoverer
	needs *needsAuthCache
	// regrant repeats a machine grant: a machine's "refresh".
	regrant func(ctx context.Context, srv model.Server) (*tokenRecord, error)
	now     func() time.Time
	log     *slog.Logger

	held   lock.Map[string, held]
	flight singleflight.Group
}

// held is a server's token in this process; loaded says the vault was
// read (tok nil then means there is none).
type held struct {
	tok    *tokenRecord
	loaded bool
}

// current is the stored token, refreshed first when it has expired.
// It returns nil (and no error) when there is none: the request then goes
// out without Authorization. Machine grants fetch a token when none exists.
func (t *tokens) current(ctx context.Context, srv model.Server) (*tokenRecord, error) {
	key := stateKey(srv)
	h := t.held.Get(key)
	tok := h.tok
	if !h.loaded {
		var rec tokenRecord
		ok, err := t.vault.loadJSON(ctx, storeKey(srv, kindToken), &rec)
		if err != nil {
			return nil, err
		}
		t.held.Update(key, func(h *held) {
			if !h.loaded {
				if ok {
					h.tok = &rec
				}
				h.loaded = true
			}
			tok = h.tok
		})
	}
	if tok == nil && !isMachine(srv) {
		return nil, nil
	}
	if tok != nil && !tok.expired(t.now()) {
		return tok, nil
	}
	return t.refresh(ctx, srv, tok)
}

// inUse is the token this process holds for srv, nil when none.
func (t *tokens) inUse(srv model.Server) *tokenRecord { return t.held.Get(stateKey(srv)).tok }

// adopt makes rec the token in use.
func (t *tokens) adopt(srv model.Server, rec *tokenRecord) {
	t.held.Update(stateKey(srv), func(h *held) { h.tok, h.loaded = rec, true })
}

// reload reads the stored token again and adopts it when it is not the one
// that was just refused; nil when there is nothing newer.
func (t *tokens) reload(ctx context.Context, srv model.Server, used *tokenRecord) (tok *tokenRecord) {
	var rec tokenRecord
	ok, err := t.vault.loadJSON(ctx, storeKey(srv, kindToken), &rec)
	if err != nil || !ok || (used != nil && rec.AccessToken == used.AccessToken) || rec.expired(t.now()) {
		return nil
	}
	t.held.Update(stateKey(srv), func(h *held) {
		if h.tok != nil && h.tok != used {
			tok = h.tok // another caller in this process already has a newer one
			return
		}
		h.tok, h.loaded = &rec, true
		tok = h.tok
	})
	return tok
}

// newer is the token another caller put in place of used, if it is still
// good; nil when used is still the one in use.
func (t *tokens) newer(srv model.Server, used *tokenRecord) *tokenRecord {
	if cur := t.inUse(srv); cur != nil && cur != used && !cur.expired(t.now()) {
		return cur
	}
	return nil
}

// refresh refreshes once for all concurrent callers (singleflight, one
// flight per server). used is the token the caller had; if another caller
// already replaced it, that newer token is returned without a second
// refresh. Every caller waits for the one refresh, which no caller's
// context cuts short: the others share its result, and a rotated refresh
// token must reach the store even when the caller gave up meanwhile (the
// old one is dead at the authorization server). The wire's timeout bounds
// it.
func (t *tokens) refresh(ctx context.Context, srv model.Server, used *tokenRecord) (*tokenRecord, error) {
	if tok := t.newer(srv, used); tok != nil {
		return tok, nil
	}
	detached := context.WithoutCancel(ctx)
	v, err, _ := t.flight.Do(stateKey(srv), func() (any, error) {
		// A flight that ended between the check above and this one
		// brought a token already: its refresh token is the live one.
		if tok := t.newer(srv, used); tok != nil {
			return tok, nil
		}
		tok, err := t.renew(detached, srv, used)
		if err != nil {
			return nil, err
		}
		if serr := t.vault.saveJSON(detached, storeKey(srv, kindToken), tok); serr != nil {
			// Still use it in this process; the next sign-in repairs the store.
			t.log.Warn("refreshed token not saved", "server", srv.Name, "err", serr)
		}
		t.held.Update(stateKey(srv), func(h *held) { h.tok = tok })
		t.needs.unmark(srv)
		return tok, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*tokenRecord), nil
}

var errNoRefresh = errors.New("no refresh token")

// renew uses the refresh token, or repeats a machine grant.
func (t *tokens) renew(ctx context.Context, srv model.Server, used *tokenRecord) (*tokenRecord, error) {
	if isMachine(srv) {
		return t.regrant(ctx, srv)
	}
	if used == nil || used.RefreshToken == "" {
		return nil, errNoRefresh
	}
	endpoint := used.TokenEndpoint
	if endpoint == "" {
		// A record without its token endpoint: the refresh token and the
		// client secret may go only to the issuer they came from, never
		// to whatever the metadata names now.
		d, err := t.disco.discover(ctx, srv)
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
	tr, err := t.wire.tokenRequest(ctx, endpoint, form, ca, "token refresh")
	if err != nil {
		var oe *OAuthError
		if errors.As(err, &oe) && oe.Code == "invalid_grant" {
			// The refresh token is dead: forget it so we stop trying.
			_ = t.vault.remove(ctx, storeKey(srv, kindToken))
			t.held.Update(stateKey(srv), func(h *held) {
				if h.tok == used {
					h.tok = nil
				}
			})
			return nil, fmt.Errorf("%w: %w", ErrNeedsAuth, err)
		}
		return nil, err
	}
	t.log.Info("token refreshed", "server", srv.Name)
	return newRecord(tr, nil, used, t.now()), nil
}
