package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
)

// secretKinds are the stored entries that hold secrets (the issuer a
// client secret is bound to is not one).
var secretKinds = []string{kindToken, kindClient, kindClientSecret, kindPrivateKey, kindIDToken, kindIDPSecret}

// secretEnv are the variables the Manager reads secrets from when the
// keychain has none.
var secretEnv = []string{"MCPDECK_CLIENT_SECRET", "MCPDECK_CLIENT_PRIVATE_KEY", "MCPDECK_IDP_ID_TOKEN", "MCPDECK_IDP_CLIENT_SECRET"}

// StoredSecrets lists every secret value mcpdeck keeps or reads for
// servers — access and refresh tokens, client secrets, private and DPoP
// keys, ID tokens — from the keychain under each of servers' current
// definitions, from the whole credentials file (entries of old
// definitions too) and from the environment variables that stand in for
// them, so that a support bundle can mask them wherever a server echoed
// one. A multi-line value (a PEM key) also lists its lines. The error says
// what could not be read; what could be is returned all the same.
func (m *Manager) StoredSecrets(ctx context.Context, servers []model.Server) ([]string, error) {
	var out []string
	add := func(raw string) { out = append(out, secretsIn(raw)...) }
	var errs []error
	for _, srv := range servers {
		for _, kind := range secretKinds {
			v, err := m.vault.store.Get(ctx, storeKey(srv, kind))
			switch {
			case err == nil:
				add(v)
			case !errors.Is(err, ErrNotFound):
				errs = append(errs, fmt.Errorf("server %s: %w", srv.Name, err))
			}
		}
	}
	if fb := m.vault.fb; fb != nil {
		all, err := fb.file.all()
		if err != nil {
			errs = append(errs, err)
		}
		for _, v := range all {
			add(v)
		}
	}
	for _, k := range secretEnv {
		if v := env(m.opts.LookupEnv).get(k); v != "" {
			add(v)
		}
	}
	return out, errors.Join(errs...)
}

// secretsIn is the secret values of one stored entry: the secret fields
// of a token or client record, or the value itself (a plain secret), and
// the lines of a multi-line one.
func secretsIn(raw string) []string {
	var rec struct {
		AccessToken  string `json:"access_token"`
		RefreshToken string `json:"refresh_token"`
		ClientSecret string `json:"client_secret"`
		DPoPKey      string `json:"dpop_key"`
	}
	vals := []string{raw}
	if strings.HasPrefix(strings.TrimSpace(raw), "{") && json.Unmarshal([]byte(raw), &rec) == nil {
		vals = []string{rec.AccessToken, rec.RefreshToken, rec.ClientSecret, rec.DPoPKey}
	}
	var out []string
	for _, v := range vals {
		v = strings.TrimSpace(v)
		if v == "" {
			continue
		}
		out = append(out, v)
		if strings.Contains(v, "\n") {
			for l := range strings.SplitSeq(v, "\n") {
				if l = strings.TrimSpace(l); len(l) >= 16 && !strings.HasPrefix(l, "-----") {
					out = append(out, l)
				}
			}
		}
	}
	return out
}
