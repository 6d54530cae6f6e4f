package oauth

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/lock"
)

// protocolVersion is sent with discovery requests (MCP-Protocol-Version).
const protocolVersion = "2025-11-25"

// protectedResource is RFC 9728 protected-resource metadata.
type protectedResource struct {
	Resource             string   `json:"resource"`
	AuthorizationServers []string `json:"authorization_servers"`
	ScopesSupported      []string `json:"scopes_supported,omitempty"`
}

// asMetadata is RFC 8414 / OpenID Connect discovery metadata, the fields we use.
type asMetadata struct {
	Issuer                            string   `json:"issuer"`
	AuthorizationEndpoint             string   `json:"authorization_endpoint"`
	TokenEndpoint                     string   `json:"token_endpoint"`
	RegistrationEndpoint              string   `json:"registration_endpoint,omitempty"`
	RevocationEndpoint                string   `json:"revocation_endpoint,omitempty"`
	ScopesSupported                   []string `json:"scopes_supported,omitempty"`
	GrantTypesSupported               []string `json:"grant_types_supported,omitempty"`
	TokenEndpointAuthMethodsSupported []string `json:"token_endpoint_auth_methods_supported,omitempty"`
	// CodeChallengeMethodsSupported must list S256 for an authorization
	// code flow; nil when the document leaves it out (see requirePKCE).
	CodeChallengeMethodsSupported     *[]string `json:"code_challenge_methods_supported,omitempty"`
	ClientIDMetadataDocumentSupported bool      `json:"client_id_metadata_document_supported,omitempty"`
	AuthorizationResponseIssParameter bool      `json:"authorization_response_iss_parameter_supported,omitempty"`
	// DPoPSigningAlgValuesSupported, when it lists ES256, makes us ask for
	// DPoP-bound tokens (dpop.go).
	DPoPSigningAlgValuesSupported []string `json:"dpop_signing_alg_values_supported,omitempty"`
}

// discovery is everything learned about where and how to authorize.
type discovery struct {
	PRM      *protectedResource // nil for 2025-03-26 servers without one
	AS       asMetadata
	Defaults bool   // AS endpoints are the 2025-03-26 defaults, not a document
	Resource string // RFC 8707 resource indicator
}

// discoverer is the discovery part: it finds where and how a server's
// sign-in happens, from the hints of the server's last challenge (a 401
// or 403's WWW-Authenticate), else from a probe without credentials, and
// the metadata documents those name. The hints, per server, are its own.
type discoverer struct {
	wire  *wire
	log   *slog.Logger
	hints lock.Map[string, hints]
}

// hints is what a server's challenges said: challenged means a 401 or 403
// was seen (even without hints), so discovery need not probe.
type hints struct {
	challenged bool
	metadata   string   // resource_metadata
	scopes     []string // scope
}

// noteChallenge remembers the hints of a Bearer challenge for discovery.
func (dc *discoverer) noteChallenge(srv model.Server, c challenge) {
	dc.hints.Update(stateKey(srv), func(h *hints) {
		h.challenged = true
		if c.ResourceMetadata != "" {
			h.metadata = c.ResourceMetadata
		}
		if len(c.Scopes) > 0 {
			h.scopes = c.Scopes
		}
	})
}

// scopeHint is the scope the server's last challenge asked for.
func (dc *discoverer) scopeHint(srv model.Server) []string {
	return slices.Clone(dc.hints.Get(stateKey(srv)).scopes)
}

// discover finds the protected-resource and authorization-server metadata
// of srv, using the hints of the last 401 when there are some and probing
// the server for them when there are none. It refuses metadata that would
// send credentials over plain http to another machine (see secureEndpoint).
func (dc *discoverer) discover(ctx context.Context, srv model.Server) (*discovery, error) {
	d, err := dc.findMetadata(ctx, srv)
	if err != nil {
		return nil, err
	}
	if err := d.checkEndpoints(srv.Name); err != nil {
		return nil, err
	}
	return d, nil
}

// findMetadata is discover without the endpoint check.
func (dc *discoverer) findMetadata(ctx context.Context, srv model.Server) (*discovery, error) {
	serverURL, err := url.Parse(srv.Config.URL)
	if err != nil || serverURL.Host == "" {
		return nil, fmt.Errorf("%w: server URL %q is not absolute", ErrConfig, srv.Config.URL)
	}
	hint, open := dc.challenge(ctx, srv)
	d := &discovery{Resource: canonicalResource(serverURL)}
	if err := dc.findPRM(ctx, srv, serverURL, hint, d); err != nil {
		return nil, err
	}
	var cut bool
	if d.Resource, cut = sentResource(d.Resource, srv); cut {
		dc.log.Info("the server's URL holds a secret: the resource named to its authorization server leaves that part out",
			"server", srv.Name, "resource", d.Resource)
	}
	var oc model.OAuthConfig
	if srv.Config.OAuth != nil {
		oc = *srv.Config.OAuth
	}
	issuer := originOf(serverURL)
	if d.PRM != nil {
		issuer = d.PRM.AuthorizationServers[0]
		// Checked before it is asked anything: its metadata decides where
		// codes and secrets go.
		if err := secureEndpoint("authorization server named in "+srv.Name+"'s protected-resource metadata", issuer); err != nil {
			return nil, err
		}
	}
	if mdURL := oc.AuthServerMetadataURL; mdURL != "" {
		md, err := dc.configuredASMetadata(ctx, srv, mdURL)
		if err != nil {
			return nil, err
		}
		d.AS = md
		return d, nil
	}
	// Without protected-resource metadata (2025-03-26) the issuer is
	// whatever the server's root metadata says: nothing to hold it to.
	md, found, err := dc.fetchASMetadata(ctx, issuer, d.PRM != nil)
	if err != nil {
		return nil, err
	}
	if found {
		d.AS = md
		return d, nil
	}
	if open && d.PRM == nil && oc.ClientID == "" {
		// Nothing asked for sign-in and nothing describes one: guessing
		// default endpoints would only end in a registration error.
		return nil, fmt.Errorf("server %s: %w", srv.Name, ErrNotAsked)
	}
	// 2025-03-26 fallback: default endpoints at the authorization base URL.
	iu, err := url.Parse(issuer)
	if err != nil || iu.Host == "" {
		return nil, fmt.Errorf("authorization server %q is not a URL", issuer)
	}
	base := originOf(iu)
	d.Defaults = true
	d.AS = asMetadata{
		Issuer:                issuer,
		AuthorizationEndpoint: base + "/authorize",
		TokenEndpoint:         base + "/token",
		RegistrationEndpoint:  base + "/register",
	}
	return d, nil
}

// challenge is the resource-metadata URL the server's 401 named (from an
// earlier challenge, else from a probe without credentials, remembered in
// the hints) and whether the probe got through without credentials.
func (dc *discoverer) challenge(ctx context.Context, srv model.Server) (hint string, open bool) {
	if h := dc.hints.Get(stateKey(srv)); h.challenged {
		return h.metadata, false
	}
	c, ok := dc.probe(ctx, srv)
	if ok {
		dc.hints.Update(stateKey(srv), func(h *hints) {
			h.metadata, h.scopes, h.challenged = c.ResourceMetadata, c.Scopes, true
		})
		hint = c.ResourceMetadata
	}
	return hint, c.Open
}

// findPRM sets d.PRM (and d.Resource) from the first protected-resource
// metadata candidate that names an authorization server; metadata for
// another resource is refused.
func (dc *discoverer) findPRM(ctx context.Context, srv model.Server, serverURL *url.URL, hint string, d *discovery) error {
	for _, u := range prmCandidates(hint, serverURL) {
		var prm protectedResource
		status, err := dc.wire.getJSON(ctx, u, &prm)
		if err != nil {
			if isContextErr(err) {
				return err
			}
			dc.log.Debug("protected-resource metadata not usable", "url", u, "err", err)
			continue
		}
		if status != http.StatusOK || len(prm.AuthorizationServers) == 0 {
			continue
		}
		if prm.Resource != "" {
			if !resourceMatches(prm.Resource, serverURL) {
				return fmt.Errorf("%w: metadata at %s is for %s, not %s", ErrResourceMismatch,
					shownURL(u), shownURL(prm.Resource), shownURL(srv.Config.URL))
			}
			d.Resource = prm.Resource
		}
		d.PRM = &prm
		return nil
	}
	return nil
}

// configuredASMetadata reads the authorization server metadata the
// person's oauth.authServerMetadataUrl names.
func (dc *discoverer) configuredASMetadata(ctx context.Context, srv model.Server, mdURL string) (asMetadata, error) {
	if err := secureEndpoint("oauth.authServerMetadataUrl of "+srv.Name, mdURL); err != nil {
		return asMetadata{}, err
	}
	var md asMetadata
	status, err := dc.wire.getJSON(ctx, mdURL, &md)
	if err != nil {
		return asMetadata{}, fmt.Errorf("authorization server metadata at %s: %w", shownURL(mdURL), err)
	}
	if status != http.StatusOK || md.TokenEndpoint == "" {
		return asMetadata{}, fmt.Errorf("authorization server metadata at %s: HTTP %d or no token_endpoint", shownURL(mdURL), status)
	}
	if md.Issuer == "" {
		// Client registrations and secrets are bound to the issuer
		// (see secretbinding.go): never leave it empty.
		mu, _ := url.Parse(mdURL)
		md.Issuer = originOf(mu)
	}
	return md, nil
}

// fetchASMetadata tries the RFC 8414 and OpenID metadata locations for
// issuer in the order asMetadataCandidates gives (tenant paths included)
// and takes the first usable document. With strict, the document's issuer
// must equal the one we asked for (ignoring a trailing slash), so a server
// cannot hand us another authorization server's endpoints.
func (dc *discoverer) fetchASMetadata(ctx context.Context, issuer string, strict bool) (asMetadata, bool, error) {
	for _, u := range asMetadataCandidates(issuer) {
		var md asMetadata
		status, err := dc.wire.getJSON(ctx, u, &md)
		if err != nil {
			if isContextErr(err) {
				return md, false, err
			}
			dc.log.Debug("authorization server metadata not usable", "url", u, "err", err)
			continue
		}
		if status != http.StatusOK || md.TokenEndpoint == "" {
			continue
		}
		if strict && md.Issuer != "" && strings.TrimSuffix(md.Issuer, "/") != strings.TrimSuffix(issuer, "/") {
			return md, false, fmt.Errorf("%w: metadata at %s says %s, expected %s", ErrIssuerMismatch, shownURL(u), shownURL(md.Issuer), shownURL(issuer))
		}
		if md.Issuer == "" {
			md.Issuer = issuer
		}
		return md, true, nil
	}
	return asMetadata{}, false, nil
}

// prmCandidates lists protected-resource metadata URLs: the hint, then the
// path-based well-known URL, then the root one.
func prmCandidates(hint string, u *url.URL) []string {
	var out []string
	if hint != "" {
		if hu, err := u.Parse(hint); err == nil {
			out = append(out, hu.String())
		}
	}
	origin := originOf(u)
	if p := strings.TrimSuffix(u.EscapedPath(), "/"); p != "" {
		out = append(out, origin+"/.well-known/oauth-protected-resource"+p)
	}
	out = append(out, origin+"/.well-known/oauth-protected-resource")
	return slices.Compact(out)
}

// asMetadataCandidates lists metadata URLs for an issuer: with a path
// (tenant), the inserted RFC 8414 and OpenID forms and the appended OpenID
// form; without, the two root forms.
func asMetadataCandidates(issuer string) []string {
	u, err := url.Parse(issuer)
	if err != nil || u.Host == "" {
		return nil
	}
	origin := originOf(u)
	p := strings.Trim(u.EscapedPath(), "/")
	if p == "" {
		return []string{
			origin + "/.well-known/oauth-authorization-server",
			origin + "/.well-known/openid-configuration",
		}
	}
	return []string{
		origin + "/.well-known/oauth-authorization-server/" + p,
		origin + "/.well-known/openid-configuration/" + p,
		origin + "/" + p + "/.well-known/openid-configuration",
	}
}

func originOf(u *url.URL) string {
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Host)
}

// canonicalResource is the RFC 8707 resource indicator of a server URL:
// lower-case scheme and host, no fragment.
func canonicalResource(u *url.URL) string {
	c := *u
	c.Scheme = strings.ToLower(c.Scheme)
	c.Host = strings.ToLower(c.Host)
	c.Fragment = ""
	c.RawFragment = ""
	return c.String()
}

// resourceMatches reports whether the metadata's resource covers the server
// URL: same origin, and the server path at or below the resource path.
func resourceMatches(resource string, server *url.URL) bool {
	r, err := url.Parse(resource)
	if err != nil || r.Host == "" {
		return false
	}
	if originOf(r) != originOf(server) {
		return false
	}
	rp := strings.TrimSuffix(r.Path, "/")
	sp := strings.TrimSuffix(server.Path, "/")
	return rp == "" || sp == rp || strings.HasPrefix(sp, rp+"/")
}
