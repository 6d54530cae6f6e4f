package oauth

import (
	"time"

	"github.com/mcpdeck/mcpdeck/model"
)

// Kinds of stored entries, one keychain entry (or chunk set) each.
const (
	kindToken        = "token"
	kindClient       = "client"        // dynamically registered client
	kindClientSecret = "client-secret" // secret of a pre-registered client
	// kindSecretBinding is the issuer the client secret is bound to (secretbinding.go).
	kindSecretBinding = "client-secret-issuer"
	kindPrivateKey    = "private-key"  // PEM for private_key_jwt
	kindIDToken       = "idp-id-token" // enterprise IdP ID token for cross-app access
	kindIDPSecret     = "idp-client-secret"
)

// storeKey names an entry by server name and config hash, so that a changed
// definition never silently reuses the old server's tokens.
func storeKey(srv model.Server, kind string) string {
	h := srv.Hash
	if len(h) > 16 {
		h = h[:16]
	}
	return srv.Name + "@" + h + "/" + kind
}

// stateKey names a server's state in every part: a changed definition is
// another server.
func stateKey(srv model.Server) string { return srv.Name + "@" + srv.Hash }

// tokenRecord is a token plus what is needed to refresh and revoke it after
// a restart without discovery.
type tokenRecord struct {
	AccessToken        string    `json:"access_token"`
	RefreshToken       string    `json:"refresh_token,omitempty"`
	TokenType          string    `json:"token_type,omitempty"`
	ExpiresAt          time.Time `json:"expires_at,omitzero"`
	IssuedAt           time.Time `json:"issued_at,omitzero"`
	Scopes             []string  `json:"scopes,omitempty"`
	Issuer             string    `json:"issuer,omitempty"`
	TokenEndpoint      string    `json:"token_endpoint,omitempty"`
	RevocationEndpoint string    `json:"revocation_endpoint,omitempty"`
	Resource           string    `json:"resource,omitempty"`
	ClientID           string    `json:"client_id,omitempty"`
	ClientSecret       string    `json:"client_secret,omitempty"`
	AuthMethod         string    `json:"auth_method,omitempty"`
	// DPoPKey is the PEM private key the token is bound to (DPoP); the
	// token is useless without it, so it lives and dies with the token.
	DPoPKey string `json:"dpop_key,omitempty"`
}

// String never shows the token.
func (t *tokenRecord) String() string { return "token[redacted]" }

// GoString never shows the token, even with %#v.
func (t *tokenRecord) GoString() string { return "token[redacted]" }

// expired reports whether the access token is past, or close to, its
// expiry: within 30 s, or within a quarter of its lifetime for short-lived
// tokens (so a 2 s token is not refreshed before every request).
func (t *tokenRecord) expired(now time.Time) bool {
	if t.ExpiresAt.IsZero() {
		return false
	}
	skew := 30 * time.Second
	if !t.IssuedAt.IsZero() {
		skew = min(skew, t.ExpiresAt.Sub(t.IssuedAt)/4)
	}
	return !now.Add(skew).Before(t.ExpiresAt)
}

// clientRecord is a dynamically registered (or metadata-document) client.
type clientRecord struct {
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret,omitempty"`
	AuthMethod   string `json:"token_endpoint_auth_method,omitempty"`
	RedirectURI  string `json:"redirect_uri,omitempty"`
	// Issuer is the authorization server the client was registered with.
	// The client (and its secret) is used with that issuer only; a record
	// without one (stored before it was kept, or by hand) is never
	// used: the client registers again (clientIdentity).
	Issuer string `json:"issuer,omitempty"`
}

// String never shows the secret.
func (c *clientRecord) String() string { return "client " + c.ClientID }

// SetClientSecret keeps the client secret of a pre-registered client
// (oauth.clientId) in the keychain; "" deletes it. Either way the binding
// of the old secret to an issuer is forgotten: the person giving the
// secret is what may move it to another authorization server, and its
// next use binds it again (secretbinding.go).
func (m *Manager) SetClientSecret(srv model.Server, secret string) error {
	if err := m.vault.setSecret(srv, kindSecretBinding, ""); err != nil {
		return err
	}
	return m.vault.setSecret(srv, kindClientSecret, secret)
}

// SetPrivateKey keeps a PEM private key (PKCS#8, SEC1 or PKCS#1) for
// private_key_jwt client authentication; "" deletes it.
func (m *Manager) SetPrivateKey(srv model.Server, pem string) error {
	return m.vault.setSecret(srv, kindPrivateKey, pem)
}

// SetIDToken keeps the enterprise IdP ID token used by cross-app access; "" deletes it.
func (m *Manager) SetIDToken(srv model.Server, idToken string) error {
	return m.vault.setSecret(srv, kindIDToken, idToken)
}

// SetIDPClientSecret keeps the client secret mcpdeck uses at the enterprise
// IdP for cross-app access; "" deletes it.
func (m *Manager) SetIDPClientSecret(srv model.Server, secret string) error {
	return m.vault.setSecret(srv, kindIDPSecret, secret)
}
