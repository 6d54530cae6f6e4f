package oauth

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
)

// wireLog keeps, per host, what every request carried (its Authorization
// header decoded when Basic, and its body), to look for secrets in.
type wireLog struct {
	base http.RoundTripper
	mu   sync.Mutex
	sent map[string][]string
}

func (w *wireLog) RoundTrip(r *http.Request) (*http.Response, error) {
	var body []byte
	if r.Body != nil {
		body, _ = io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	auth := r.Header.Get("Authorization")
	if b, ok := strings.CutPrefix(auth, "Basic "); ok {
		if dec, err := base64.StdEncoding.DecodeString(b); err == nil {
			auth = string(dec)
		}
	}
	w.mu.Lock()
	w.sent[r.URL.Host] = append(w.sent[r.URL.Host], r.URL.RawQuery+" "+auth+" "+string(body))
	w.mu.Unlock()
	return w.base.RoundTrip(r)
}

// carried reports whether any request to the host of rawURL held s.
func (w *wireLog) carried(rawURL, s string) bool {
	u, _ := url.Parse(rawURL)
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, v := range w.sent[u.Host] {
		if strings.Contains(v, s) || strings.Contains(v, url.QueryEscape(s)) {
			return true
		}
	}
	return false
}

func newWiredEnv(t *testing.T, tweak func(*Options)) (*testEnv, *wireLog) {
	wl := &wireLog{sent: map[string][]string{}}
	e := newEnv(t, func(o *Options) {
		wl.base = o.Transport
		o.Transport = wl
		if tweak != nil {
			tweak(o)
		}
	})
	return e, wl
}

// A configured client secret (pre-registered client) goes only to the
// issuer it was first used with: when the server's metadata later names
// another authorization server, the secret is not sent there and the
// error says what to do; giving the secret again moves it.
func TestConfiguredSecretBoundToIssuer(t *testing.T) {
	e, wl := newWiredEnv(t, nil)
	secret := "pre-secret-" + randomID()
	e.fake.PreClientID, e.fake.PreClientSecret = "pre-client", secret
	srv := e.server()
	srv.Config.OAuth = &model.OAuthConfig{ClientID: "pre-client"}
	if err := e.m.SetClientSecret(srv, secret); err != nil {
		t.Fatal(err)
	}
	if err := e.authenticate(srv); err != nil {
		t.Fatal(err)
	}
	as2 := newFakeAS(t)
	as2.PreClientID, as2.PreClientSecret = "pre-client", secret
	e.fake.moveTo(as2)
	err := e.authenticate(srv)
	if !errors.Is(err, ErrSecretIssuer) || !strings.Contains(err.Error(), "mcpdeck auth --client-secret remote") {
		t.Fatalf("got %v, want ErrSecretIssuer saying how to move the secret", err)
	}
	if wl.carried(as2.as.URL, secret) {
		t.Error("the client secret was sent to the new authorization server")
	}
	if len(as2.Authorizes) != 0 {
		t.Error("the flow went on at the new authorization server")
	}
	// The person gives the secret again: it may go to the new issuer now.
	if err := e.m.SetClientSecret(srv, secret); err != nil {
		t.Fatal(err)
	}
	if err := e.authenticate(srv); err != nil {
		t.Fatalf("after giving the secret again: %v", err)
	}
}

// The same binding holds for machine grants, which run without a person
// whenever a token is needed.
func TestMachineSecretBoundToIssuer(t *testing.T) {
	e, wl := newWiredEnv(t, func(o *Options) {
		o.LookupEnv = func(k string) (string, bool) {
			if k == "MCPDECK_CLIENT_SECRET" {
				return "env-secret-0123456789", true
			}
			return "", false
		}
	})
	secret := "env-secret-0123456789" // from the environment: bound all the same
	e.fake.PreClientID, e.fake.PreClientSecret = "cc-client", secret
	srv := e.server()
	srv.Config.OAuth = &model.OAuthConfig{ClientID: "cc-client", Grant: GrantClientCredentials}
	if code, err := e.get(srv, ""); err != nil || code != http.StatusOK {
		t.Fatalf("got %d, %v", code, err)
	}
	as2 := newFakeAS(t)
	as2.PreClientID, as2.PreClientSecret = "cc-client", secret
	e.fake.moveTo(as2)
	if code, _ := e.get(srv, ""); code != http.StatusUnauthorized {
		t.Errorf("got %d, want 401: no token from the new authorization server", code)
	}
	if wl.carried(as2.as.URL, secret) {
		t.Error("the client secret was sent to the new authorization server")
	}
	if !strings.Contains(e.logs.String(), ErrSecretIssuer.Error()) {
		t.Error("the refusal was not logged")
	}
}

// A token record that lacks its token endpoint (stored by hand or by an
// older version) is refreshed only at the issuer that issued it: after a
// move, neither the refresh token nor the registered client's secret goes
// to the new authorization server.
func TestRefreshNotSentToNewIssuer(t *testing.T) {
	e, wl := newWiredEnv(t, nil)
	e.fake.RegisterMethod = authBasic // the registration comes with a secret
	e.fake.ExpiresIn = 60
	srv := e.server()
	if err := e.authenticate(srv); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var rec tokenRecord
	if ok, err := e.m.vault.loadJSON(ctx, storeKey(srv, kindToken), &rec); !ok || err != nil {
		t.Fatalf("no stored token: %v", err)
	}
	if rec.ClientSecret == "" || rec.RefreshToken == "" {
		t.Fatal("test needs a confidential client with a refresh token")
	}
	rec.TokenEndpoint = ""
	if err := e.m.vault.saveJSON(ctx, storeKey(srv, kindToken), &rec); err != nil {
		t.Fatal(err)
	}
	e.m = New(e.opts) // a restart reads the record as stored
	as2 := newFakeAS(t)
	e.fake.moveTo(as2)
	e.clock.Advance(2 * time.Minute)
	if code, _ := e.get(srv, ""); code != http.StatusUnauthorized {
		t.Errorf("got %d, want 401", code)
	}
	for what, s := range map[string]string{"client secret": rec.ClientSecret, "refresh token": rec.RefreshToken} {
		if wl.carried(as2.as.URL, s) {
			t.Errorf("the %s was sent to the new authorization server", what)
		}
	}
	if n := as2.calls("refresh_token"); n != 0 {
		t.Errorf("refresh requests at the new authorization server: %d", n)
	}
}

// A dynamically registered client is never presented, with its secret, to
// another authorization server: the flow registers there anew.
func TestRegisteredSecretNotSentToNewIssuer(t *testing.T) {
	e, wl := newWiredEnv(t, func(o *Options) { o.InlineAuth = true })
	e.fake.RegisterMethod = authPost
	srv := e.server()
	if code, err := e.get(srv, ""); err != nil || code != http.StatusOK {
		t.Fatalf("first: %d, %v", code, err)
	}
	var old clientRecord
	if ok, _ := e.m.vault.loadJSON(context.Background(), storeKey(srv, kindClient), &old); !ok || old.ClientSecret == "" {
		t.Fatal("test needs a registration with a secret")
	}
	as2 := newFakeAS(t)
	e.fake.moveTo(as2)
	if code, err := e.get(srv, ""); err != nil || code != http.StatusOK {
		t.Fatalf("after the move: %d, %v", code, err)
	}
	if wl.carried(as2.as.URL, old.ClientSecret) || wl.carried(as2.as.URL, old.ClientID) {
		t.Error("the old registration was presented to the new authorization server")
	}
}
