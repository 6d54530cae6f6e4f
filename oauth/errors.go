package oauth

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// Sentinel errors; wrap-checked with errors.Is by callers that need to tell
// the person what to do next.
var (
	// ErrNeedsAuth means the server wants a token we do not have.
	ErrNeedsAuth = errors.New("the server needs authentication: run mcpdeck auth")
	// ErrStateMismatch means callbacks arrived whose state was not ours.
	// They are answered with an error page and ignored; the error only
	// explains a sign-in that then timed out.
	ErrStateMismatch = errors.New("authorization callbacks without our state arrived (possible forgery) and were ignored")
	// ErrCallbackTimeout means the browser never came back to the callback.
	ErrCallbackTimeout = errors.New("timed out waiting for the browser to finish the authorization")
	// ErrPortBusy means the callback port is taken by another program.
	ErrPortBusy = errors.New("the OAuth callback port is already in use")
	// ErrStepUpLimit means the server kept asking for more scopes.
	ErrStepUpLimit = errors.New("the server kept asking for more scopes; gave up after the retry limit")
	// ErrUntrusted means a headersHelper was not run, or a sign-in not
	// started, for an unapproved project server.
	ErrUntrusted = errors.New("the project server is not approved (approve it first)")
	// ErrHelper means the headersHelper failed or timed out.
	ErrHelper = errors.New("headersHelper failed")
	// ErrResourceMismatch means the protected-resource metadata names another resource.
	ErrResourceMismatch = errors.New("the protected-resource metadata is for a different server")
	// ErrNoPKCE means the authorization server does not support PKCE S256.
	ErrNoPKCE = errors.New("the authorization server does not support PKCE S256; refusing to continue")
	// ErrNoClient means we have no way to identify ourselves to the authorization server.
	ErrNoClient = errors.New("no client identity: the server offers no dynamic registration; set oauth.clientId")
	// ErrNotAsked means the server never asked for sign-in: it answered
	// without credentials and publishes no OAuth metadata.
	ErrNotAsked = errors.New("the server did not ask for sign-in: it answered without credentials and publishes no OAuth metadata, so there is nothing to sign in to")
	// ErrWantsHeader means the server asked for credentials (401) but
	// offers no OAuth sign-in (model.ErrWantsHeader).
	ErrWantsHeader = model.ErrWantsHeader
	// ErrIssuerMismatch means metadata or a callback named an unexpected issuer.
	ErrIssuerMismatch = errors.New("the authorization server's issuer does not match")
	// ErrKeychainTimeout means a keychain call did not answer in time.
	ErrKeychainTimeout = errors.New("the keychain did not answer in time")
	// ErrNotFound means no secret is stored under that key.
	ErrNotFound = errors.New("no stored secret")
	// ErrInsecureEndpoint means an authorization-server URL is plain http
	// to another machine; the error is an *InsecureEndpointError.
	ErrInsecureEndpoint = errors.New("the authorization server endpoint does not use https")
	// ErrSecretIssuer means a stored client secret belongs to another
	// authorization server than the one the metadata names now.
	ErrSecretIssuer = errors.New("the client secret was registered with another authorization server")
	// ErrConfig means the server's oauth section cannot work as written.
	ErrConfig = errors.New("invalid oauth configuration")
)

// OAuthError is an error answer from an authorization server. It carries the
// code and description only, never the response body.
type OAuthError struct {
	Op          string // "token request", "registration", ...
	Status      int
	Code        string
	Description string
}

// Error renders the answer as one sentence.
func (e *OAuthError) Error() string {
	msg := fmt.Sprintf("%s failed (HTTP %d", e.Op, e.Status)
	if e.Code != "" {
		msg += ", " + e.Code
	}
	msg += ")"
	if e.Description != "" {
		msg += ": " + e.Description
	}
	return msg
}

// maxServerText caps a string an authorization server sent (an error
// description, a metadata value) in our messages.
const maxServerText = 300

// serverText is a string from an authorization server or a callback as it
// may appear in an error: one line, no control or escape sequences, and no
// longer than maxServerText.
func serverText(s string) string {
	s = textsafe.SanitizeLine(s)
	if utf8.RuneCountInString(s) <= maxServerText {
		return s
	}
	r := []rune(s)
	return string(r[:maxServerText]) + "…"
}

// cleanError is an error whose text was built from sanitized parts while
// errors.Is/As still reach the cause.
type cleanError struct {
	msg string
	err error
}

func (e *cleanError) Error() string { return e.msg }
func (e *cleanError) Unwrap() error { return e.err }
