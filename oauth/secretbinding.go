package oauth

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"

	"github.com/mcpdeck/mcpdeck/model"
)

// secretBinding ties the configured client secret of a server (keychain or
// MCPDECK_CLIENT_SECRET) to the issuer it was first sent to. It is kept in
// the store next to the secret, under kindSecretBinding.
//
// Which issuer a configured secret belongs to is known only once discovery
// has run, so the first use binds it (and a secret stored before bindings
// existed is bound on its first use after the upgrade, the same moment a new
// one would be: refusing it would only make the person type the same secret
// again, which is bound no differently). From then on the secret goes to
// that issuer only, whatever the metadata says later. SecretSHA256 tells
// which secret the binding is for: a different secret (the person gave a new
// one) is bound afresh on its first use.
//
// Dynamically registered clients carry their issuer in clientRecord and
// their secrets in token records next to the issuer and token endpoint they
// were issued for; see clientIdentity and doRefresh.
type secretBinding struct {
	Issuer       string `json:"issuer"`
	SecretSHA256 string `json:"secret_sha256"`
}

// boundClientSecret is the configured client secret of srv ("" when there
// is none) provided it may be sent to issuer, binding it on first use. A
// secret bound to another issuer is never returned: the error says so.
func (r *registrar) boundClientSecret(ctx context.Context, srv model.Server, issuer string) (string, error) {
	secret, err := r.clientSecret(ctx, srv)
	if err != nil || secret == "" {
		return secret, err
	}
	if issuer == "" {
		return "", fmt.Errorf("%w: the authorization server of %s names no issuer to bind the client secret to", ErrSecretIssuer, srv.Name)
	}
	sum := sha256.Sum256([]byte(secret))
	digest := hex.EncodeToString(sum[:])
	var b secretBinding
	ok, err := r.vault.loadJSON(ctx, storeKey(srv, kindSecretBinding), &b)
	if err != nil {
		return "", err
	}
	if ok && subtle.ConstantTimeCompare([]byte(b.SecretSHA256), []byte(digest)) == 1 {
		if b.Issuer != issuer {
			return "", fmt.Errorf("%w: the client secret of %s was first used with %s, but its authorization server is now %s; "+
				"it was not sent. If the server really moved, give the secret again with mcpdeck auth --client-secret %s",
				ErrSecretIssuer, srv.Name, shownURL(b.Issuer), shownURL(issuer), srv.Name)
		}
		return secret, nil
	}
	// Bound before it is sent: a secret that could not be bound is not sent.
	if err := r.vault.saveJSON(ctx, storeKey(srv, kindSecretBinding), secretBinding{Issuer: issuer, SecretSHA256: digest}); err != nil {
		return "", err
	}
	r.log.Info("client secret bound to its authorization server", "server", srv.Name, "issuer", issuer)
	return secret, nil
}
