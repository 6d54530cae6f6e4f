package oauth

import (
	"context"
	"errors"

	"github.com/zalando/go-keyring"
)

// Store keeps small named secrets (tokens, client credentials). Get returns
// ErrNotFound when nothing is stored under key.
type Store interface {
	Get(ctx context.Context, key string) (string, error)
	Set(ctx context.Context, key, value string) error
	Delete(ctx context.Context, key string) error
}

// Keyring is the OS keychain in go-keyring's shape, so that tests can use an
// in-memory, failing or hanging one.
type Keyring interface {
	Get(service, user string) (string, error)
	Set(service, user, password string) error
	Delete(service, user string) error
}

// SystemKeyring is the OS keychain through go-keyring, asked only when
// it can be reached without starting a program (keyringReachable).
type SystemKeyring struct{}

// Get reads one entry.
func (SystemKeyring) Get(service, user string) (string, error) {
	if err := keyringReachable(); err != nil {
		return "", err
	}
	v, err := keyring.Get(service, user)
	if errors.Is(err, keyring.ErrNotFound) {
		return "", ErrNotFound
	}
	return v, err
}

// Set writes one entry.
func (SystemKeyring) Set(service, user, password string) error {
	if err := keyringReachable(); err != nil {
		return err
	}
	return keyring.Set(service, user, password)
}

// Delete removes one entry.
func (SystemKeyring) Delete(service, user string) error {
	if err := keyringReachable(); err != nil {
		return err
	}
	err := keyring.Delete(service, user)
	if errors.Is(err, keyring.ErrNotFound) {
		return ErrNotFound
	}
	return err
}
