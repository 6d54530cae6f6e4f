package oauth

import (
	"context"
	"errors"
	"path/filepath"
	"time"

	"github.com/mcpdeck/mcpdeck/model/config"
)

// SecretStore keeps the secrets that server definitions refer to as
// ${secret:NAME} (API keys and tokens a registry server asked for), in the
// same place as the Manager's tokens: the OS keychain, or the 0600
// credentials file in the config dir when there is none. Keys come from
// config.SecretRef.Key, so they never meet an OAuth entry.
type SecretStore struct {
	fb *fallbackStore
}

// SecretStoreOptions configure a SecretStore; zero values give the
// production behaviour.
type SecretStoreOptions struct {
	ConfigDir string        // <user config dir>/mcpdeck: credentials.json lives there
	Keyring   Keyring       // nil = the OS keychain (go-keyring)
	Timeout   time.Duration // bounds every keychain call; default 3 s
}

// NewSecretStore builds a SecretStore.
func NewSecretStore(o SecretStoreOptions) *SecretStore {
	if o.Keyring == nil {
		o.Keyring = SystemKeyring{}
	}
	if o.Timeout <= 0 {
		o.Timeout = 3 * time.Second
	}
	return &SecretStore{fb: &fallbackStore{
		kc:   &keychainStore{kr: o.Keyring, timeout: o.Timeout},
		file: &fileStore{path: filepath.Join(o.ConfigDir, "credentials.json")},
		what: "secrets",
	}}
}

// Get reads the secret ref names.
func (s *SecretStore) Get(ctx context.Context, ref config.SecretRef) (string, error) {
	v, err := s.fb.Get(ctx, ref.Key())
	if errors.Is(err, ErrNotFound) {
		return "", config.ErrSecretNotFound
	}
	return v, err
}

// Set stores value as the secret ref names.
func (s *SecretStore) Set(ctx context.Context, ref config.SecretRef, value string) error {
	return s.fb.Set(ctx, ref.Key(), value)
}

// Delete removes the secret ref names; config.ErrSecretNotFound when there
// was none.
func (s *SecretStore) Delete(ctx context.Context, ref config.SecretRef) error {
	err := s.fb.Delete(ctx, ref.Key())
	if errors.Is(err, ErrNotFound) {
		return config.ErrSecretNotFound
	}
	return err
}

// Lookup is Get in the shape of config.LoadOptions.LookupSecret, each read
// bounded by ctx.
func (s *SecretStore) Lookup(ctx context.Context) func(config.SecretRef) (string, error) {
	return func(ref config.SecretRef) (string, error) { return s.Get(ctx, ref) }
}

// Warning says where secrets went when the keychain could not hold them,
// or "" (fallbackStore.Warning).
func (s *SecretStore) Warning() string { return s.fb.Warning() }
