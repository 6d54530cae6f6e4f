package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/mcpdeck/mcpdeck/model"
)

// vault is the storage part: where tokens, client registrations and
// secrets are kept, as JSON records or plain values, in the Store (the
// keychain with its 0600 file fallback, or the one Options.Store gave).
// Its fields are set once; the stores guard their own.
type vault struct {
	store Store
	fb    *fallbackStore // nil when Options.Store was given
	opts  Options        // KeyringTimeout, for writes made outside a request
}

func newVault(opts Options) *vault {
	v := &vault{opts: opts, store: opts.Store}
	if v.store == nil {
		kr := opts.Keyring
		if kr == nil {
			kr = SystemKeyring{}
		}
		v.fb = &fallbackStore{
			kc:   &keychainStore{kr: kr, timeout: opts.KeyringTimeout},
			file: &fileStore{path: filepath.Join(opts.ConfigDir, "credentials.json")},
		}
		v.store = v.fb
	}
	return v
}

func (v *vault) loadJSON(ctx context.Context, key string, out any) (bool, error) {
	s, err := v.store.Get(ctx, key)
	if errors.Is(err, ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("reading stored credentials: %w", err)
	}
	if err := json.Unmarshal([]byte(s), out); err != nil {
		// Never echo the value: it is a secret.
		return false, fmt.Errorf("stored credentials for %s are unreadable; run mcpdeck auth again", key)
	}
	return true, nil
}

func (v *vault) saveJSON(ctx context.Context, key string, val any) error {
	b, err := json.Marshal(val)
	if err != nil {
		return err
	}
	if err := v.store.Set(ctx, key, string(b)); err != nil {
		return fmt.Errorf("saving credentials: %w", err)
	}
	return nil
}

// remove deletes an entry; ErrNotFound when there was none.
func (v *vault) remove(ctx context.Context, key string) error { return v.store.Delete(ctx, key) }

// secret reads a plain secret entry; "" when absent.
func (v *vault) secret(ctx context.Context, srv model.Server, kind string) (string, error) {
	s, err := v.store.Get(ctx, storeKey(srv, kind))
	if errors.Is(err, ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("reading stored secret: %w", err)
	}
	return s, nil
}

// setSecret writes a plain secret entry ("" deletes it), bounded by the
// keychain timeout: the person is waiting at a prompt, not a request.
func (v *vault) setSecret(srv model.Server, kind, value string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 4*v.opts.KeyringTimeout)
	defer cancel()
	key := storeKey(srv, kind)
	if value == "" {
		err := v.store.Delete(ctx, key)
		if errors.Is(err, ErrNotFound) {
			return nil
		}
		return err
	}
	return v.store.Set(ctx, key, value)
}

// warnings is the keychain fallback's notice, if any.
func (v *vault) warnings() []string {
	if v.fb == nil {
		return nil
	}
	if w := v.fb.Warning(); w != "" {
		return []string{w}
	}
	return nil
}
