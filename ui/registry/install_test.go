package registry

import (
	"context"
	"errors"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/testdata/fakeregistry"
)

// mapStore is a SecretWriter in memory that can be made to fail.
type mapStore struct {
	m    map[string]string
	fail error
}

func (s *mapStore) Set(_ context.Context, ref config.SecretRef, v string) error {
	if s.fail != nil {
		return s.fail
	}
	s.m[ref.Key()] = v
	return nil
}

func (s *mapStore) Delete(_ context.Context, ref config.SecretRef) error {
	delete(s.m, ref.Key())
	return nil
}

func loadOptions(t *testing.T) config.LoadOptions {
	home := t.TempDir()
	proj := filepath.Join(home, "proj")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	return config.LoadOptions{
		Cwd: proj, Home: home, ConfigDir: filepath.Join(home, ".config", "mcpdeck"), ManagedDir: filepath.Join(home, "managed"),
		LookupEnv: func(string) (string, bool) { return "", false },
	}
}

// TestInstallStoresSecretsForTheDefinition: the definition goes to the
// scope's file with a reference, the value to the store under the key a
// load of that file looks up; a name already taken changes nothing, and a
// store that fails leaves no definition behind.
func TestInstallStoresSecretsForTheDefinition(t *testing.T) {
	opts := loadOptions(t)
	store := &mapStore{m: map[string]string{}}
	cfg := model.ServerConfig{Command: "npx", Args: []string{"-y", "x@1.0.0"}, Env: map[string]string{"TOKEN": "${secret:TOKEN}"}}
	secrets := []Secret{{Name: "TOKEN", Value: "tok-value-123", Field: "env TOKEN"}}
	for _, scope := range []model.Scope{model.ScopeUser, model.ScopeLocal} {
		path, err := Install(t.Context(), opts, scope, "x", cfg, secrets, store)
		if err != nil {
			t.Fatalf("%s: %v", scope, err)
		}
		if b, _ := os.ReadFile(path); strings.Contains(string(b), "tok-value-123") || !strings.Contains(string(b), "${secret:TOKEN}") {
			t.Errorf("%s file:\n%s", scope, b)
		}
	}
	opts.LookupSecret = func(r config.SecretRef) (string, error) {
		if v, ok := store.m[r.Key()]; ok {
			return v, nil
		}
		return "", config.ErrSecretNotFound
	}
	r, err := config.Load(opts)
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := r.Server("x"); s.Scope != model.ScopeLocal || s.Config.Env["TOKEN"] != "tok-value-123" || len(s.Problems) > 0 {
		t.Errorf("loaded: %+v %v", s.Config, s.Problems)
	}
	if len(store.m) != 2 {
		t.Errorf("store %v", store.m)
	}

	// The name is taken: the stored value is not touched.
	if _, err := Install(t.Context(), opts, model.ScopeUser, "x", cfg, []Secret{{Name: "TOKEN", Value: "other"}}, store); !errors.Is(err, model.ErrExists) {
		t.Fatalf("again: %v", err)
	}
	for _, v := range store.m {
		if v != "tok-value-123" {
			t.Errorf("a stored secret was overwritten: %v", store.m)
		}
	}

	store.fail = errors.New("keychain locked")
	_, err = Install(t.Context(), opts, model.ScopeUser, "y", cfg, secrets, store)
	if err == nil || !strings.Contains(err.Error(), "storing the secret TOKEN (env TOKEN) of server y: keychain locked (nothing was added)") {
		t.Fatalf("failing store: %v", err)
	}
	if r, _ := config.Load(opts); func() bool { _, ok := r.Server("y"); return ok }() {
		t.Error("the definition stayed after the store failed")
	}
	if _, err := Install(t.Context(), opts, model.ScopeProject, "z", cfg, secrets, store); !errors.Is(err, ErrSecretInSharedFile) {
		t.Errorf("project scope with secrets: %v", err)
	}
}

// TestPinnedResolvesLatest: no version asks for the latest and gets its
// number; a version the registry does not have is not found.
func TestPinnedResolvesLatest(t *testing.T) {
	srv := httptest.NewServer(fakeregistry.Handler(`{"name":"io.example/floating","version":"latest","remotes":[{"type":"sse","url":"https://e.example/sse"}]}`))
	t.Cleanup(srv.Close)
	c := Client{Base: srv.URL}
	e, err := c.Pinned(t.Context(), "io.github.modelcontextprotocol/server-everything", "")
	if err != nil || e.Version != "2026.8.31" {
		t.Fatalf("latest: %v %v", e.Version, err)
	}
	if _, err := c.Pinned(t.Context(), "io.github.modelcontextprotocol/server-everything", "1.0.0"); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown version: %v", err)
	}
	if _, err := c.Pinned(t.Context(), "io.example/floating", ""); err == nil || !strings.Contains(err.Error(), `version "latest"`) {
		t.Errorf("a version named latest: %v", err)
	}
}
