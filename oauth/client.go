package oauth

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"

	"github.com/mcpdeck/mcpdeck/model"
)

// registrar is the registration part: who mcpdeck is at an authorization
// server. It reuses a client it registered there (kept in the vault with
// the issuer it belongs to), registers anew (RFC 7591), or presents the
// person's pre-registered client and its secret, bound to one issuer. Its
// fields are set once; what it learns lives in the vault.
type registrar struct {
	vault       *vault
	wire        *wire
	env         env
	log         *slog.Logger
	clientName  string // Options.ClientName
	metadataURL string // Options.ClientMetadataURL
}

// clientIdentity decides how we identify ourselves: the configured
// pre-registered clientId, a remembered registration, a Client ID Metadata
// Document URL when the server supports it, or a new dynamic registration.
func (r *registrar) clientIdentity(ctx context.Context, srv model.Server, d *discovery, redirectURI string) (*clientRecord, error) {
	oc := oauthConfig(srv)
	if oc.ClientID != "" {
		secret, err := r.boundClientSecret(ctx, srv, d.AS.Issuer)
		if err != nil {
			return nil, err
		}
		registered, err := r.env.extra(oc, "tokenEndpointAuthMethod")
		if err != nil {
			return nil, err
		}
		method := chooseAuthMethod(d.AS.TokenEndpointAuthMethodsSupported, secret != "", registered)
		return &clientRecord{ClientID: oc.ClientID, ClientSecret: secret, AuthMethod: method, Issuer: d.AS.Issuer}, nil
	}
	var saved clientRecord
	ok, err := r.vault.loadJSON(ctx, storeKey(srv, kindClient), &saved)
	if err != nil {
		r.log.Warn("stored client registration unreadable; registering again", "server", srv.Name)
	}
	if ok && saved.Issuer != "" && saved.Issuer == d.AS.Issuer && (saved.RedirectURI == "" || saved.RedirectURI == redirectURI) {
		return &saved, nil
	}
	if cimd := firstNonEmpty(oc.ClientMetadataURL, r.metadataURL); cimd != "" && d.AS.ClientIDMetadataDocumentSupported {
		return &clientRecord{ClientID: cimd, AuthMethod: authNone, Issuer: d.AS.Issuer}, nil
	}
	if d.AS.RegistrationEndpoint == "" {
		return nil, ErrNoClient
	}
	rec, err := r.register(ctx, d, redirectURI)
	if err != nil {
		return nil, err
	}
	if err := r.vault.saveJSON(ctx, storeKey(srv, kindClient), rec); err != nil {
		return nil, err
	}
	return rec, nil
}

// savedRedirectPort is the port of a remembered registration's redirect
// URI, so that the callback can reuse it instead of registering again.
func (r *registrar) savedRedirectPort(ctx context.Context, srv model.Server) int {
	var saved clientRecord
	if ok, _ := r.vault.loadJSON(ctx, storeKey(srv, kindClient), &saved); !ok {
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
func (r *registrar) register(ctx context.Context, d *discovery, redirectURI string) (*clientRecord, error) {
	body, err := json.Marshal(registration{
		ClientName:              r.clientName,
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
	resp, err := r.wire.http.Do(req)
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
	var got registration
	if err := json.Unmarshal(b, &got); err != nil || got.ClientID == "" {
		return nil, fmt.Errorf("dynamic client registration: the answer has no client_id")
	}
	method := got.TokenEndpointAuthMethod
	if method == "" || (method != authNone && got.ClientSecret == "") {
		method = chooseAuthMethod(d.AS.TokenEndpointAuthMethodsSupported, got.ClientSecret != "", "")
	}
	r.log.Info("registered OAuth client", "issuer", d.AS.Issuer)
	return &clientRecord{
		ClientID: got.ClientID, ClientSecret: got.ClientSecret, AuthMethod: method,
		RedirectURI: redirectURI, Issuer: d.AS.Issuer,
	}, nil
}

// clientSecret is the pre-registered client's secret: keychain, else
// MCPDECK_CLIENT_SECRET.
func (r *registrar) clientSecret(ctx context.Context, srv model.Server) (string, error) {
	s, err := r.vault.secret(ctx, srv, kindClientSecret)
	if err != nil || s != "" {
		return s, err
	}
	return r.env.get("MCPDECK_CLIENT_SECRET"), nil
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
