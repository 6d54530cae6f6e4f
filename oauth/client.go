package oauth

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"github.com/mcpdeck/mcpdeck/model"
)

// clientIdentity decides how we identify ourselves: the configured
// pre-registered clientId, a remembered registration, a Client ID Metadata
// Document URL when the server supports it, or a new dynamic registration.
func (m *Manager) clientIdentity(ctx context.Context, srv model.Server, d *discovery, redirectURI string) (*clientRecord, error) {
	oc := oauthConfig(srv)
	if oc.ClientID != "" {
		secret, err := m.boundClientSecret(ctx, srv, d.AS.Issuer)
		if err != nil {
			return nil, err
		}
		registered, err := m.extra(oc, "tokenEndpointAuthMethod")
		if err != nil {
			return nil, err
		}
		method := chooseAuthMethod(d.AS.TokenEndpointAuthMethodsSupported, secret != "", registered)
		return &clientRecord{ClientID: oc.ClientID, ClientSecret: secret, AuthMethod: method, Issuer: d.AS.Issuer}, nil
	}
	var saved clientRecord
	ok, err := m.loadJSON(ctx, storeKey(srv, kindClient), &saved)
	if err != nil {
		m.log.Warn("stored client registration unreadable; registering again", "server", srv.Name)
	}
	if ok && saved.Issuer != "" && saved.Issuer == d.AS.Issuer && (saved.RedirectURI == "" || saved.RedirectURI == redirectURI) {
		return &saved, nil
	}
	if cimd := firstNonEmpty(oc.ClientMetadataURL, m.opts.ClientMetadataURL); cimd != "" && d.AS.ClientIDMetadataDocumentSupported {
		return &clientRecord{ClientID: cimd, AuthMethod: authNone, Issuer: d.AS.Issuer}, nil
	}
	if d.AS.RegistrationEndpoint == "" {
		return nil, ErrNoClient
	}
	rec, err := m.register(ctx, d, redirectURI)
	if err != nil {
		return nil, err
	}
	if err := m.saveJSON(ctx, storeKey(srv, kindClient), rec); err != nil {
		return nil, err
	}
	return rec, nil
}

// savedRedirectPort is the port of a remembered registration's redirect
// URI, so that the callback can reuse it instead of registering again.
func (m *Manager) savedRedirectPort(ctx context.Context, srv model.Server) int {
	var saved clientRecord
	if ok, _ := m.loadJSON(ctx, storeKey(srv, kindClient), &saved); !ok {
		return 0
	}
	var port int
	if _, err := fmt.Sscanf(saved.RedirectURI, "http://127.0.0.1:%d/callback", &port); err != nil {
		return 0
	}
	return port
}

// registration is an RFC 7591 client registration request and answer.
type registration struct {
	ClientName              string   `json:"client_name,omitempty"`
	RedirectURIs            []string `json:"redirect_uris,omitempty"`
	GrantTypes              []string `json:"grant_types,omitempty"`
	ResponseTypes           []string `json:"response_types,omitempty"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method,omitempty"`
	// ApplicationType is "native": a loopback redirect on the person's machine.
	ApplicationType string `json:"application_type,omitempty"`
	ClientID        string `json:"client_id,omitempty"`
	ClientSecret    string `json:"client_secret,omitempty"`
}

// register performs dynamic client registration (RFC 7591) as a public client.
func (m *Manager) register(ctx context.Context, d *discovery, redirectURI string) (*clientRecord, error) {
	body, err := json.Marshal(registration{
		ClientName:              m.opts.ClientName,
		RedirectURIs:            []string{redirectURI},
		GrantTypes:              []string{"authorization_code", "refresh_token"},
		ResponseTypes:           []string{"code"},
		TokenEndpointAuthMethod: authNone,
		ApplicationType:         "native",
	})
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.AS.RegistrationEndpoint, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("bad registration endpoint: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := m.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("dynamic client registration: %w", humanNetErr(err))
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusCreated {
		if d.Defaults && resp.StatusCode == http.StatusNotFound {
			return nil, ErrNoClient
		}
		return nil, answerError("dynamic client registration", resp.StatusCode, b, nil, clientAuth{})
	}
	var r registration
	if err := json.Unmarshal(b, &r); err != nil || r.ClientID == "" {
		return nil, fmt.Errorf("dynamic client registration: the answer has no client_id")
	}
	method := r.TokenEndpointAuthMethod
	if method == "" || (method != authNone && r.ClientSecret == "") {
		method = chooseAuthMethod(d.AS.TokenEndpointAuthMethodsSupported, r.ClientSecret != "", "")
	}
	m.log.Info("registered OAuth client", "issuer", d.AS.Issuer)
	return &clientRecord{
		ClientID: r.ClientID, ClientSecret: r.ClientSecret, AuthMethod: method,
		RedirectURI: redirectURI, Issuer: d.AS.Issuer,
	}, nil
}

// clientSecret is the pre-registered client's secret: keychain, else
// MCPDECK_CLIENT_SECRET.
func (m *Manager) clientSecret(ctx context.Context, srv model.Server) (string, error) {
	s, err := m.secret(ctx, srv, kindClientSecret)
	if err != nil || s != "" {
		return s, err
	}
	return m.lookupEnv("MCPDECK_CLIENT_SECRET"), nil
}

func oauthConfig(srv model.Server) model.OAuthConfig {
	if srv.Config.OAuth == nil {
		return model.OAuthConfig{}
	}
	oc := *srv.Config.OAuth
	if oc.Grant == GrantEnterpriseManaged {
		oc.Grant = GrantCrossApp
	}
	return oc
}

// extra reads a string setting of OAuthConfig.Extra ("" when absent) with
// ${VAR} and ${VAR:-default} expanded through Options.LookupEnv, as the
// model expands the named fields (it leaves Extra alone: it does not know
// what the keys mean). An unset variable is a configuration error.
func (m *Manager) extra(oc model.OAuthConfig, key string) (string, error) {
	raw, ok := oc.Extra[key]
	if !ok {
		return "", nil
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", fmt.Errorf("%w: oauth.%s must be a string", ErrConfig, key)
	}
	lookup := m.opts.LookupEnv
	if lookup == nil {
		lookup = func(string) (string, bool) { return "", false }
	}
	v, missing := model.Expand(s, lookup)
	if len(missing) > 0 {
		return "", fmt.Errorf("%w: oauth.%s: %s is not set", ErrConfig, key, missing[0])
	}
	return v, nil
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
