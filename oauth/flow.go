package oauth

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/launch"
)

// codeFlow is the browser's sign-in: authorization code with PKCE S256,
// state and resource, the code coming back to a loopback callback. Its
// fields are set once; each run keeps its own.
type codeFlow struct {
	disco *discoverer
	reg   *registrar
	wire  *wire
	steps *stepUps
	log   *slog.Logger
	// open shows the URL in a browser; nil = mcpdeck's own opener.
	open    func(ctx context.Context, url string) error
	timeout time.Duration // Options.CallbackTimeout
}

// run is authorization code + PKCE S256 + state + resource.
func (cf *codeFlow) run(ctx context.Context, srv model.Server, showURL func(string)) (*tokenRecord, error) {
	d, err := cf.disco.discover(ctx, srv)
	if err != nil {
		return nil, err
	}
	if err := requirePKCE(d); err != nil {
		return nil, err
	}
	scopes := chooseScopes(srv, cf.steps.pending(srv), cf.disco.scopeHint(srv), d)

	verifier, err := transport.GenerateCodeVerifier()
	if err != nil {
		return nil, err
	}
	state, err := transport.GenerateState()
	if err != nil {
		return nil, err
	}
	oc := oauthConfig(srv)
	port := oc.CallbackPort
	if port == 0 && oc.ClientID == "" {
		port = cf.reg.savedRedirectPort(ctx, srv)
	}
	cs, err := listenCallback(ctx, port, state)
	if err != nil && oc.CallbackPort == 0 && port != 0 {
		cs, err = listenCallback(ctx, 0, state) // remembered port taken: register anew
	}
	if err != nil {
		return nil, err
	}
	go cs.serve()
	defer cs.close()
	defer func() {
		if n := cs.ignored.Load(); n > 0 {
			cf.log.Warn("ignored OAuth callbacks without our state (possible forgery)", "server", srv.Name, "count", n)
		}
	}()

	client, err := cf.reg.clientIdentity(ctx, srv, d, cs.redirectURI)
	if err != nil {
		return nil, err
	}
	authURL, err := buildAuthorizeURL(d, client.ClientID, cs.redirectURI, state, transport.GenerateCodeChallenge(verifier), scopes)
	if err != nil {
		return nil, err
	}
	if showURL != nil {
		showURL(authURL)
	}
	open := cf.open
	if open == nil { // mcpdeck's own program, judged by serverCommand rules
		open = launch.Own(srv.ManagedPolicy).OpenBrowser
	}
	if err := open(ctx, authURL); err != nil {
		cf.log.Warn("browser not opened; use the URL shown", "err", err)
	}

	timer := time.NewTimer(cf.timeout)
	defer timer.Stop()
	var res callbackResult
	select {
	case res = <-cs.result:
	case <-timer.C:
		if n := cs.ignored.Load(); n > 0 {
			return nil, fmt.Errorf("%w (%s); %d callback(s) with a wrong state: %w", ErrCallbackTimeout, cf.timeout, n, ErrStateMismatch)
		}
		return nil, fmt.Errorf("%w (%s)", ErrCallbackTimeout, cf.timeout)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if res.Err != nil {
		return nil, res.Err
	}
	if res.Iss != "" && res.Iss != d.AS.Issuer { // RFC 9207: simple string comparison
		return nil, fmt.Errorf("%w: the callback names %s, expected %s", ErrIssuerMismatch, serverText(res.Iss), shownURL(d.AS.Issuer))
	}
	if res.Iss == "" && d.AS.AuthorizationResponseIssParameter {
		return nil, fmt.Errorf("%w: the callback carries no iss although the server promises one", ErrIssuerMismatch)
	}

	form := url.Values{
		"grant_type":    {"authorization_code"},
		"code":          {res.Code},
		"redirect_uri":  {cs.redirectURI},
		"code_verifier": {verifier},
		"resource":      {d.Resource},
	}
	ca := clientAuth{ClientID: client.ClientID, Secret: client.ClientSecret, Method: client.AuthMethod}
	var dpopPEM string
	if wantsDPoP(d.AS) {
		if ca.DPoP, dpopPEM, err = newDPoPKey(); err != nil {
			return nil, err
		}
	}
	tr, err := cf.wire.tokenRequest(ctx, d.AS.TokenEndpoint, form, ca, "token request")
	if err != nil {
		return nil, err
	}
	rec := newRecord(tr, scopes, nil, cf.wire.now())
	rec.DPoPKey = dpopPEM
	rec.Issuer, rec.TokenEndpoint, rec.RevocationEndpoint = d.AS.Issuer, d.AS.TokenEndpoint, d.AS.RevocationEndpoint
	rec.Resource, rec.ClientID, rec.ClientSecret, rec.AuthMethod = d.Resource, client.ClientID, client.ClientSecret, client.AuthMethod
	cf.steps.clearPending(srv)
	return rec, nil
}

// requirePKCE refuses an authorization code flow unless the metadata lists
// S256 in code_challenge_methods_supported. A document that leaves the
// field out is refused too: the MCP authorization specification has the
// client check it, since a server that does not say it does PKCE may
// ignore the challenge. Only the default endpoints of a 2025-03-26 server
// with no metadata document at all pass without it: there is no document
// to check, that revision makes PKCE mandatory for the server, and we
// always send S256.
func requirePKCE(d *discovery) error {
	if d.Defaults {
		return nil
	}
	p := d.AS.CodeChallengeMethodsSupported
	switch {
	case p == nil:
		return fmt.Errorf("%w: the metadata of %s has no code_challenge_methods_supported", ErrNoPKCE, shownURL(d.AS.Issuer))
	case !slices.Contains(*p, "S256"):
		return fmt.Errorf("%w: %s lists only %q in code_challenge_methods_supported", ErrNoPKCE,
			shownURL(d.AS.Issuer), serverText(strings.Join(*p, " ")))
	}
	return nil
}

// chooseScopes follows the MCP scope selection strategy: a pending step-up
// (union of scopes), else configured scopes, else the 401's scope (hint),
// else the resource's scopes_supported, else none; offline_access is added
// when the authorization server lists it.
func chooseScopes(srv model.Server, stepUp, hint []string, d *discovery) []string {
	var scopes []string
	switch oc := oauthConfig(srv); {
	case len(stepUp) > 0:
		scopes = stepUp
	case len(oc.Scopes) > 0:
		scopes = slices.Clone(oc.Scopes)
	case len(hint) > 0:
		scopes = hint
	case d.PRM != nil && len(d.PRM.ScopesSupported) > 0:
		scopes = slices.Clone(d.PRM.ScopesSupported)
	}
	if len(scopes) > 0 && slices.Contains(d.AS.ScopesSupported, "offline_access") && !slices.Contains(scopes, "offline_access") &&
		(len(d.AS.GrantTypesSupported) == 0 || slices.Contains(d.AS.GrantTypesSupported, "refresh_token")) {
		scopes = append(scopes, "offline_access")
	}
	return scopes
}

func buildAuthorizeURL(d *discovery, clientID, redirectURI, state, challenge string, scopes []string) (string, error) {
	u, err := url.Parse(d.AS.AuthorizationEndpoint)
	// Only web URLs reach the browser opener: metadata naming file:, smb:
	// or a custom scheme must not start some other handler on this machine.
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return "", fmt.Errorf("the authorization endpoint %q is not an http(s) URL", d.AS.AuthorizationEndpoint)
	}
	q := u.Query()
	q.Set("response_type", "code")
	q.Set("client_id", clientID)
	q.Set("redirect_uri", redirectURI)
	q.Set("state", state)
	q.Set("code_challenge", challenge)
	q.Set("code_challenge_method", "S256")
	q.Set("resource", d.Resource)
	if len(scopes) > 0 {
		q.Set("scope", strings.Join(scopes, " "))
	}
	u.RawQuery = q.Encode()
	return u.String(), nil
}
