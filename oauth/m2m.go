package oauth

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
)

// Grant and token type URNs of RFC 8693 / RFC 7523 / ID-JAG.
const (
	grantTokenExchange = "urn:ietf:params:oauth:grant-type:token-exchange"
	grantJWTBearer     = "urn:ietf:params:oauth:grant-type:jwt-bearer"
	tokenTypeIDToken   = "urn:ietf:params:oauth:token-type:id_token"
	tokenTypeIDJAG     = "urn:ietf:params:oauth:token-type:id-jag"
)

// machineGrants obtains tokens without a person. Its fields are set once;
// it keeps nothing of its own: what it learns goes to the parts it asks
// (discovery's hints, step-up's pending scopes, the vault).
type machineGrants struct {
	disco         *discoverer
	reg           *registrar
	vault         *vault
	wire          *wire
	steps         *stepUps
	env           env
	now           func() time.Time
	helperTimeout time.Duration // bounds oauth.assertionCommand
}

// grant obtains a token without a person: client_credentials
// (client_secret_basic/post or private_key_jwt), or cross-app access (an
// ID-JAG from the enterprise IdP by token exchange, then the JWT bearer grant).
//
// Settings beyond OAuthConfig come from oauth.Extra: tokenEndpointAuthMethod,
// privateKeyFile, signingAlgorithm, idpTokenEndpoint, idpIssuer, idpClientId.
func (mg *machineGrants) grant(ctx context.Context, srv model.Server) (*tokenRecord, error) {
	oc := oauthConfig(srv)
	if oc.ClientID == "" && oc.Grant != GrantJWTBearer {
		return nil, fmt.Errorf("%w: oauth.grant %q needs oauth.clientId", ErrConfig, oc.Grant)
	}
	d, err := mg.disco.discover(ctx, srv)
	if err != nil {
		return nil, err
	}
	scopes := unionScopes(mg.steps.pending(srv))
	if len(scopes) == 0 {
		scopes = unionScopes(oc.Scopes)
	}
	if len(scopes) == 0 {
		scopes = unionScopes(mg.disco.scopeHint(srv))
	}
	if len(scopes) == 0 && d.PRM != nil {
		scopes = unionScopes(d.PRM.ScopesSupported)
	}
	ca, err := mg.clientAuth(ctx, srv, oc, d)
	if err != nil {
		return nil, err
	}

	form := url.Values{"resource": {d.Resource}}
	if len(scopes) > 0 {
		form.Set("scope", joinScopes(scopes))
	}
	switch oc.Grant {
	case GrantCrossApp:
		jag, err := mg.idJAG(ctx, srv, oc, d, scopes)
		if err != nil {
			return nil, err
		}
		form.Set("grant_type", grantJWTBearer)
		form.Set("assertion", jag)
	case GrantJWTBearer:
		a, err := mg.workloadAssertion(ctx, srv, oc)
		if err != nil {
			return nil, err
		}
		form.Set("grant_type", grantJWTBearer)
		form.Set("assertion", a)
	default:
		form.Set("grant_type", "client_credentials")
	}
	tr, err := mg.wire.tokenRequest(ctx, d.AS.TokenEndpoint, form, ca, oc.Grant+" token request")
	if err != nil {
		if oc.Grant == GrantJWTBearer {
			return nil, refusedAssertion(err)
		}
		return nil, err
	}
	rec := newRecord(tr, scopes, nil, mg.now())
	rec.Issuer, rec.TokenEndpoint, rec.RevocationEndpoint = d.AS.Issuer, d.AS.TokenEndpoint, d.AS.RevocationEndpoint
	rec.Resource, rec.ClientID, rec.AuthMethod = d.Resource, oc.ClientID, ca.Method
	mg.steps.clearPending(srv)
	return rec, nil
}

// clientAuth picks private_key_jwt when a key is configured, else
// the client secret with basic or post.
func (mg *machineGrants) clientAuth(ctx context.Context, srv model.Server, oc model.OAuthConfig, d *discovery) (clientAuth, error) {
	ca := clientAuth{ClientID: oc.ClientID, Audience: d.AS.Issuer}
	keyPEM, err := mg.privateKey(ctx, srv, oc)
	if err != nil {
		return ca, err
	}
	method, err := mg.env.extra(oc, "tokenEndpointAuthMethod")
	if err != nil {
		return ca, err
	}
	if method == "" && keyPEM != "" {
		method = authJWT
	}
	if method == authJWT {
		if keyPEM == "" {
			return ca, fmt.Errorf("%w: private_key_jwt needs a private key (oauth.privateKeyFile or the keychain)", ErrConfig)
		}
		key, err := parsePrivateKey(keyPEM)
		if err != nil {
			return ca, fmt.Errorf("%w: %w", ErrConfig, err)
		}
		want, err := mg.env.extra(oc, "signingAlgorithm")
		if err != nil {
			return ca, err
		}
		alg, err := keyAlg(key, want)
		if err != nil {
			return ca, err
		}
		ca.Method = authJWT
		ca.Assertion = func(aud string) (string, error) {
			now := mg.now()
			return signJWT(key, alg, nil, map[string]any{
				"iss": oc.ClientID, "sub": oc.ClientID, "aud": aud,
				"iat": now.Unix(), "exp": now.Add(5 * time.Minute).Unix(), "jti": randomID(),
			})
		}
		return ca, nil
	}
	secret, err := mg.reg.boundClientSecret(ctx, srv, d.AS.Issuer)
	if err != nil {
		return ca, err
	}
	if secret == "" && method == "" && oc.Grant == GrantJWTBearer {
		method = authNone // the assertion is the credential
	}
	if secret == "" && method != authNone {
		return ca, fmt.Errorf("%w: no client secret for %s: store one with mcpdeck mcp add --client-secret or set MCPDECK_CLIENT_SECRET", ErrConfig, oc.ClientID)
	}
	ca.Secret = secret
	ca.Method = chooseAuthMethod(d.AS.TokenEndpointAuthMethodsSupported, secret != "", method)
	return ca, nil
}

// privateKey is the PEM for private_key_jwt: keychain, oauth.privateKeyFile
// (${VAR} expanded, relative to the config file that names it),
// or MCPDECK_CLIENT_PRIVATE_KEY.
func (mg *machineGrants) privateKey(ctx context.Context, srv model.Server, oc model.OAuthConfig) (string, error) {
	k, err := mg.vault.secret(ctx, srv, kindPrivateKey)
	if err != nil || k != "" {
		return k, err
	}
	p, err := mg.env.extra(oc, "privateKeyFile")
	if err != nil {
		return "", err
	}
	if p != "" {
		if d := srv.DefinitionDir(); d != "" && !filepath.IsAbs(p) {
			p = filepath.Join(d, p) // like headersHelper: next to the config file
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return "", fmt.Errorf("%w: reading oauth.privateKeyFile: %w", ErrConfig, err)
		}
		return string(b), nil
	}
	return mg.env.get("MCPDECK_CLIENT_PRIVATE_KEY"), nil
}

// idJAG exchanges the enterprise ID token for an identity assertion
// authorization grant at the IdP (RFC 8693).
func (mg *machineGrants) idJAG(ctx context.Context, srv model.Server, oc model.OAuthConfig, d *discovery, scopes []string) (string, error) {
	idToken, err := mg.vault.secret(ctx, srv, kindIDToken)
	if err != nil {
		return "", err
	}
	if idToken == "" {
		idToken = mg.env.get("MCPDECK_IDP_ID_TOKEN")
	}
	if idToken == "" {
		return "", fmt.Errorf("%w: cross-app access needs an IdP ID token (keychain or MCPDECK_IDP_ID_TOKEN)", ErrConfig)
	}
	endpoint, err := mg.env.extra(oc, "idpTokenEndpoint")
	if err != nil {
		return "", err
	}
	if endpoint == "" {
		iss, err := mg.env.extra(oc, "idpIssuer")
		if err != nil {
			return "", err
		}
		if iss == "" {
			return "", fmt.Errorf("%w: cross-app access needs oauth.idpTokenEndpoint or oauth.idpIssuer", ErrConfig)
		}
		md, found, err := mg.disco.fetchASMetadata(ctx, iss, true)
		if err != nil {
			return "", fmt.Errorf("IdP metadata: %w", err)
		}
		if !found {
			return "", fmt.Errorf("no IdP metadata found for %s", iss)
		}
		endpoint = md.TokenEndpoint
	}
	idpSecret, err := mg.vault.secret(ctx, srv, kindIDPSecret)
	if err != nil {
		return "", err
	}
	idpClient, err := mg.env.extra(oc, "idpClientId")
	if err != nil {
		return "", err
	}
	ca := clientAuth{ClientID: idpClient, Secret: idpSecret, Method: authNone}
	if idpSecret != "" {
		ca.Method = authBasic
	}
	form := url.Values{
		"grant_type":           {grantTokenExchange},
		"requested_token_type": {tokenTypeIDJAG},
		"subject_token":        {idToken},
		"subject_token_type":   {tokenTypeIDToken},
		"audience":             {d.AS.Issuer},
		"resource":             {d.Resource},
	}
	if len(scopes) > 0 {
		form.Set("scope", joinScopes(scopes))
	}
	tr, err := mg.wire.tokenRequest(ctx, endpoint, form, ca, "IdP token exchange")
	if err != nil {
		return "", err
	}
	if tr.IssuedTokenType != "" && tr.IssuedTokenType != tokenTypeIDJAG {
		return "", fmt.Errorf("IdP token exchange returned %s, not an ID-JAG", tr.IssuedTokenType)
	}
	return tr.AccessToken, nil
}

func joinScopes(s []string) string { return strings.Join(s, " ") }

func randomID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
