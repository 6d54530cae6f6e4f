package oauth

import (
	"context"
	"crypto/ecdsa"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// Token endpoint client authentication methods.
const (
	authBasic = "client_secret_basic"
	authPost  = "client_secret_post"
	authNone  = "none"
	authJWT   = "private_key_jwt"
)

// clientAuth is how we authenticate to the token endpoint.
type clientAuth struct {
	ClientID string
	Secret   string
	Method   string
	// Assertion builds a private_key_jwt client assertion for the audience.
	Assertion func(aud string) (string, error)
	Audience  string
	// DPoP, when set, signs a DPoP proof for the request so that the
	// token is bound to this key (dpop.go).
	DPoP *ecdsa.PrivateKey
}

// tokenResponse is a successful token endpoint answer.
type tokenResponse struct {
	AccessToken     string `json:"access_token"`
	TokenType       string `json:"token_type"`
	ExpiresIn       int64  `json:"expires_in"`
	RefreshToken    string `json:"refresh_token"`
	Scope           string `json:"scope"`
	IssuedTokenType string `json:"issued_token_type"`
}

type oauthErrorBody struct {
	Error       string `json:"error"`
	Description string `json:"error_description"`
}

// chooseAuthMethod picks the token endpoint auth method: what the
// registration said, else basic or post as the server supports, else none.
func chooseAuthMethod(supported []string, hasSecret bool, registered string) string {
	if registered != "" {
		return registered
	}
	if !hasSecret {
		return authNone
	}
	if len(supported) == 0 || slices.Contains(supported, authBasic) {
		return authBasic
	}
	if slices.Contains(supported, authPost) {
		return authPost
	}
	return authBasic
}

// applyClientAuth adds client authentication to a token-endpoint request.
func applyClientAuth(req *http.Request, form url.Values, ca clientAuth) error {
	switch ca.Method {
	case authBasic:
		req.Header.Set("Authorization", "Basic "+basicCredential(ca))
	case authPost:
		form.Set("client_id", ca.ClientID)
		form.Set("client_secret", ca.Secret)
	case authJWT:
		if ca.Assertion == nil {
			return fmt.Errorf("%w: private_key_jwt needs a private key", ErrConfig)
		}
		a, err := ca.Assertion(ca.Audience)
		if err != nil {
			return err
		}
		form.Set("client_id", ca.ClientID)
		form.Set("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
		form.Set("client_assertion", a)
	default:
		if ca.ClientID != "" {
			form.Set("client_id", ca.ClientID)
		}
	}
	return nil
}

// basicCredential is the client_secret_basic credential of ca: both parts
// form-encoded, then base64.
func basicCredential(ca clientAuth) string {
	cred := url.QueryEscape(ca.ClientID) + ":" + url.QueryEscape(ca.Secret)
	return base64.StdEncoding.EncodeToString([]byte(cred))
}

// tokenRequest calls the token endpoint. Errors carry the OAuth error code
// and description only, never the body (it could hold a token).
// With DPoP, a use_dpop_nonce refusal that brings a nonce is retried once
// with it.
func (w *wire) tokenRequest(ctx context.Context, endpoint string, form url.Values, ca clientAuth, op string) (*tokenResponse, error) {
	status, b, gotNonce, err := w.tokenAnswer(ctx, endpoint, form, ca, op)
	if err == nil && ca.DPoP != nil && gotNonce && status == http.StatusBadRequest && oauthErrorCode(b) == "use_dpop_nonce" {
		status, b, _, err = w.tokenAnswer(ctx, endpoint, form, ca, op)
	}
	if err != nil {
		return nil, err
	}
	if status != http.StatusOK {
		return nil, answerError(op, status, b, form, ca)
	}
	var tr tokenResponse
	if err := json.Unmarshal(b, &tr); err != nil {
		// Some servers answer form-encoded.
		if vals, perr := url.ParseQuery(string(b)); perr == nil && vals.Get("access_token") != "" {
			tr.AccessToken = vals.Get("access_token")
			tr.TokenType = vals.Get("token_type")
			tr.RefreshToken = vals.Get("refresh_token")
			tr.Scope = vals.Get("scope")
		} else {
			return nil, fmt.Errorf("%s: the authorization server's answer is not JSON", op)
		}
	}
	if tr.AccessToken == "" {
		return nil, fmt.Errorf("%s: the authorization server sent no access_token", op)
	}
	return &tr, nil
}

// tokenAnswer sends one token request and reads the answer; gotNonce says
// the answer carried a DPoP nonce (now remembered for its origin).
func (w *wire) tokenAnswer(ctx context.Context, endpoint string, form url.Values, ca clientAuth, op string) (status int, body []byte, gotNonce bool, err error) {
	resp, err := w.postForm(ctx, "token endpoint ("+op+")", endpoint, form, ca)
	if err != nil {
		return 0, nil, false, fmt.Errorf("%s: %w", op, err)
	}
	defer resp.Body.Close()
	gotNonce = ca.DPoP != nil && w.nonces.note(resp.Request.URL, resp.Header)
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return 0, nil, false, fmt.Errorf("%s: reading the answer: %w", op, err)
	}
	return resp.StatusCode, b, gotNonce, nil
}

// oauthErrorCode is the error code of an OAuth error answer, "" if none.
func oauthErrorCode(body []byte) string {
	var eb oauthErrorBody
	_ = json.Unmarshal(body, &eb)
	return eb.Error
}

// newRecord turns a token response received at now into a stored record;
// old is the record a refresh renews (nil for a new sign-in).
func newRecord(tr *tokenResponse, requested []string, old *tokenRecord, now time.Time) *tokenRecord {
	rec := &tokenRecord{
		AccessToken:  tr.AccessToken,
		RefreshToken: tr.RefreshToken,
		TokenType:    tr.TokenType,
		Scopes:       requested,
	}
	if tr.Scope != "" {
		rec.Scopes = strings.Fields(tr.Scope)
	}
	if tr.ExpiresIn > 0 {
		rec.IssuedAt = now
		rec.ExpiresAt = rec.IssuedAt.Add(time.Duration(tr.ExpiresIn) * time.Second)
	}
	if old != nil {
		if rec.RefreshToken == "" {
			rec.RefreshToken = old.RefreshToken // a refresh answer may omit the refresh token: the old one stays valid
		}
		if tr.Scope == "" && len(requested) == 0 {
			rec.Scopes = old.Scopes
		}
		rec.Issuer, rec.TokenEndpoint, rec.RevocationEndpoint = old.Issuer, old.TokenEndpoint, old.RevocationEndpoint
		rec.Resource, rec.ClientID, rec.ClientSecret, rec.AuthMethod = old.Resource, old.ClientID, old.ClientSecret, old.AuthMethod
		rec.DPoPKey = old.DPoPKey
	}
	return rec
}

// revoke asks the authorization server to forget a token (RFC 7009).
func (w *wire) revoke(ctx context.Context, endpoint, token, hint string, ca clientAuth) error {
	form := url.Values{"token": {token}, "token_type_hint": {hint}}
	resp, err := w.postForm(ctx, "revocation endpoint", endpoint, form, ca)
	if err != nil {
		return fmt.Errorf("revocation: %w", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode != http.StatusOK {
		return answerError("revocation", resp.StatusCode, b, form, ca)
	}
	return nil
}

// secretParams are the form fields that carry credentials.
var secretParams = []string{"code", "code_verifier", "refresh_token", "token", "client_secret", "client_assertion", "subject_token", "assertion"}

// answerError is an authorization server's error answer as an OAuthError.
// Some servers quote the offending token in error_description; whatever we
// sent as a credential is cut out of the code and description, which are
// cleaned for the terminal (serverText).
func answerError(op string, status int, body []byte, form url.Values, ca clientAuth) *OAuthError {
	var eb oauthErrorBody
	_ = json.Unmarshal(body, &eb)
	// Clean first: a control character inside a quoted token must not keep
	// it from being recognised below.
	eb.Error, eb.Description = textsafe.SanitizeLine(eb.Error), textsafe.SanitizeLine(eb.Description)
	secrets := []string{ca.Secret, url.QueryEscape(ca.Secret), basicCredential(ca)}
	for _, k := range secretParams {
		secrets = append(secrets, form.Get(k))
	}
	for _, s := range secrets {
		if len(s) >= 4 {
			eb.Error = strings.ReplaceAll(eb.Error, s, "[redacted]")
			eb.Description = strings.ReplaceAll(eb.Description, s, "[redacted]")
		}
	}
	return &OAuthError{Op: op, Status: status, Code: serverText(eb.Error), Description: serverText(eb.Description)}
}
