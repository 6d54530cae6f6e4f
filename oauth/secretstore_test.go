package oauth

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
)

// TestSecretStoreKeychainThenFile: secrets go to the keychain under their
// reference's key; once the keychain fails they go to the 0600 file, the
// warning says "secrets" and where, and reads find them there.
func TestSecretStoreKeychainThenFile(t *testing.T) {
	kr := newMemKeyring()
	dir := t.TempDir()
	s := NewSecretStore(SecretStoreOptions{ConfigDir: dir, Keyring: kr, Timeout: time.Second})
	ctx := t.Context()
	ref := config.SecretRef{Scope: model.ScopeUser, Server: "gh", Name: "TOKEN"}
	if _, err := s.Get(ctx, ref); !errors.Is(err, config.ErrSecretNotFound) {
		t.Fatalf("empty store: %v", err)
	}
	if err := s.Set(ctx, ref, "v1-secret"); err != nil {
		t.Fatal(err)
	}
	if kr.m["mcpdeck/"+ref.Key()] != "v1-secret" || s.Warning() != "" {
		t.Fatalf("keychain %v, warning %q", kr.m, s.Warning())
	}
	if v, err := s.Lookup(ctx)(ref); v != "v1-secret" || err != nil {
		t.Fatalf("Lookup = %q, %v", v, err)
	}
	kr.fail = errors.New("no Secret Service")
	other := config.SecretRef{Scope: model.ScopeUser, Server: "gh", Name: "OTHER"}
	if err := s.Set(ctx, other, "v2-secret"); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "credentials.json")
	if w := s.Warning(); !strings.Contains(w, "secrets stored in "+path+" (0600)") {
		t.Errorf("warning %q", w)
	}
	if fi, err := os.Stat(path); err != nil || runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Fatalf("credentials file: %v %v", fi, err)
	}
	if v, err := s.Get(ctx, other); v != "v2-secret" || err != nil {
		t.Fatalf("from the file: %q, %v", v, err)
	}
	if err := s.Delete(ctx, other); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, other); !errors.Is(err, config.ErrSecretNotFound) {
		t.Errorf("deleting again: %v", err)
	}
}
