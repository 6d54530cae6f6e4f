package oauth

import (
	"context"
	"slices"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
)

// TestStoredSecretsListsEverySecret: tokens, refresh tokens, client
// secrets, a PEM key (whole and by line) kept in the keychain or the
// credentials file, an entry of a server's older definition, and the
// environment's stand-ins are all listed; record fields that are no
// secret (client id, token type) are not.
func TestStoredSecretsListsEverySecret(t *testing.T) {
	kc := newMemKeyring()
	dir := t.TempDir()
	env := map[string]string{"MCPDECK_IDP_ID_TOKEN": "env-id-token-value"}
	m := New(Options{ConfigDir: dir, Keyring: kc, LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
	srv := model.Server{Name: "remote", Hash: "0123456789abcdef0123"}
	ctx := context.Background()
	pem := "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49\nAwEHBG0wawIBAQQg\n-----END PRIVATE KEY-----"
	if err := m.vault.saveJSON(ctx, storeKey(srv, kindToken), &tokenRecord{AccessToken: "access-1", RefreshToken: "refresh-1", TokenType: "Bearer", ClientID: "public-id", DPoPKey: pem}); err != nil {
		t.Fatal(err)
	}
	if err := m.SetClientSecret(srv, "client-secret-1"); err != nil {
		t.Fatal(err)
	}
	old := model.Server{Name: "remote", Hash: "ffffffffffffffff"}
	if err := m.vault.fb.file.Set(ctx, storeKey(old, kindClient), `{"client_id":"c","client_secret":"old-registered-secret"}`); err != nil {
		t.Fatal(err)
	}
	got, err := m.StoredSecrets(ctx, []model.Server{srv})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"access-1", "refresh-1", "client-secret-1", pem, "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49", "old-registered-secret", "env-id-token-value"} {
		if !slices.Contains(got, want) {
			t.Errorf("%q not listed", want)
		}
	}
	for _, no := range []string{"public-id", "Bearer", "c"} {
		if slices.Contains(got, no) {
			t.Errorf("%q listed, but it is no secret", no)
		}
	}
}
