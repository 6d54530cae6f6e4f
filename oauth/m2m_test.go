package oauth

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
)

func TestClientCredentialsBasic(t *testing.T) {
	e := newEnv(t, nil)
	e.fake.PreClientID, e.fake.PreClientSecret = "cc-client", "cc-secret-"+randomID()
	e.fake.AuthMethods = []string{"client_secret_basic"}
	srv := e.server()
	srv.Config.OAuth = &model.OAuthConfig{ClientID: "cc-client", Grant: GrantClientCredentials}
	if err := e.m.SetClientSecret(srv, e.fake.PreClientSecret); err != nil {
		t.Fatal(err)
	}
	// No interactive step: the first request fetches a token itself.
	if code, err := e.get(srv, ""); err != nil || code != 200 {
		t.Fatalf("got %d, %v", code, err)
	}
	if n := e.fake.calls("client_credentials"); n != 1 {
		t.Errorf("client_credentials calls = %d", n)
	}
	// An expired or rejected token is replaced by a new grant, not a refresh.
	e.fake.KillAccessTokens()
	if code, err := e.get(srv, ""); err != nil || code != 200 {
		t.Fatalf("after 401: got %d, %v", code, err)
	}
	if n := e.fake.calls("client_credentials"); n != 2 {
		t.Errorf("client_credentials calls = %d, want 2", n)
	}
}

func TestClientCredentialsPrivateKeyJWT(t *testing.T) {
	e := newEnv(t, nil)
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, _ := x509.MarshalPKCS8PrivateKey(key)
	keyFile := filepath.Join(t.TempDir(), "key.pem")
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	e.fake.PreClientID = "jwt-client"
	e.fake.ClientPublicKey = &key.PublicKey
	srv := e.server()
	srv.Config.OAuth = &model.OAuthConfig{
		ClientID: "jwt-client", Grant: GrantClientCredentials,
		Extra: map[string]json.RawMessage{"privateKeyFile": mustJSON(keyFile), "signingAlgorithm": mustJSON("ES256")},
	}
	if err := e.authenticate(srv); err != nil {
		t.Fatalf("Authenticate: %v", err)
	}
	if code, _ := e.get(srv, ""); code != 200 {
		t.Errorf("got %d", code)
	}
}

// oauth.Extra settings expand ${VAR} like the named fields, and a relative
// privateKeyFile is found next to the config file that names it.
func TestExtraSettingsExpandedAndRelativeKeyFile(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"KEY_DIR": "keys", "ALG": "ES256"}
	e := newEnv(t, func(o *Options) {
		o.LookupEnv = func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	})
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, _ := x509.MarshalPKCS8PrivateKey(key)
	if err := os.MkdirAll(filepath.Join(dir, "keys"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "keys", "key.pem"), pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	e.fake.PreClientID = "jwt-client"
	e.fake.ClientPublicKey = &key.PublicKey
	srv := e.server()
	srv.Source = filepath.Join(dir, ".mcp.json")
	srv.Config.OAuth = &model.OAuthConfig{
		ClientID: "jwt-client", Grant: GrantClientCredentials,
		Extra: map[string]json.RawMessage{"privateKeyFile": mustJSON("${KEY_DIR}/key.pem"), "signingAlgorithm": mustJSON("${ALG}")},
	}
	if err := e.authenticate(srv); err != nil {
		t.Fatalf("Authenticate: %v", err)
	}
	srv.Config.OAuth.Extra["privateKeyFile"] = mustJSON("${NOT_SET_ANYWHERE}/key.pem")
	srv.Hash = "another-definition"
	err = e.authenticate(srv)
	if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "oauth.privateKeyFile: ${NOT_SET_ANYWHERE} is not set") {
		t.Errorf("unset variable: %v", err)
	}
}

func TestClientCredentialsWithoutSecretIsAClearError(t *testing.T) {
	e := newEnv(t, nil)
	srv := e.server()
	srv.Config.OAuth = &model.OAuthConfig{ClientID: "cc", Grant: GrantClientCredentials}
	err := e.authenticate(srv)
	if !errors.Is(err, ErrConfig) {
		t.Fatalf("got %v, want ErrConfig", err)
	}
}

// TestCrossAppAccess runs enterprise-managed authorization under both its
// names: the current enterprise_managed and the older xaa.
func TestCrossAppAccess(t *testing.T) {
	for _, grant := range []string{GrantEnterpriseManaged, GrantCrossApp} {
		t.Run(grant, func(t *testing.T) { testCrossAppAccess(t, grant) })
	}
}

func testCrossAppAccess(t *testing.T, grant string) {
	e := newEnv(t, nil)
	e.fake.PreClientID, e.fake.PreClientSecret = "xaa-client", "xaa-secret-"+randomID()
	e.fake.IDToken = "idtoken-" + randomID()
	srv := e.server()
	srv.Config.OAuth = &model.OAuthConfig{
		ClientID: "xaa-client", Grant: grant,
		Extra: map[string]json.RawMessage{
			"idpTokenEndpoint": mustJSON(e.fake.as.URL + "/idp/token"),
			"idpClientId":      mustJSON("idp-client"),
		},
	}
	if err := e.m.SetClientSecret(srv, e.fake.PreClientSecret); err != nil {
		t.Fatal(err)
	}
	if err := e.m.SetIDToken(srv, e.fake.IDToken); err != nil {
		t.Fatal(err)
	}
	if err := e.authenticate(srv); err != nil {
		t.Fatalf("Authenticate: %v", err)
	}
	if e.fake.calls("idp:"+grantTokenExchange) != 1 || e.fake.calls(grantJWTBearer) != 1 {
		t.Errorf("calls: %v", e.fake.TokenCalls)
	}
	if code, _ := e.get(srv, ""); code != 200 {
		t.Errorf("got %d", code)
	}
}

func TestUnknownGrant(t *testing.T) {
	e := newEnv(t, nil)
	srv := e.server()
	srv.Config.OAuth = &model.OAuthConfig{Grant: "password"}
	if err := e.authenticate(srv); !errors.Is(err, ErrConfig) {
		t.Fatalf("got %v", err)
	}
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func TestClientCredentialsStepUpWithoutAPerson(t *testing.T) {
	e := newEnv(t, nil) // no InlineAuth: machine grants step up by themselves
	e.fake.PreClientID, e.fake.PreClientSecret = "cc-client", "cc-secret-"+randomID()
	srv := e.server()
	srv.Config.OAuth = &model.OAuthConfig{ClientID: "cc-client", Grant: GrantClientCredentials}
	if err := e.m.SetClientSecret(srv, e.fake.PreClientSecret); err != nil {
		t.Fatal(err)
	}
	if code, err := e.get(srv, "mcp:read mcp:write"); err != nil || code != 200 {
		t.Fatalf("got %d, %v", code, err)
	}
}
