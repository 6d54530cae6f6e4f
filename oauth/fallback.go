package oauth

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/mcpdeck/mcpdeck/model/lock"
)

// fallbackStore uses the keychain until it fails once (error or timeout),
// then the 0600 file for the rest of the process. Reads also look in the
// file so that tokens saved by an earlier keychain-less run are found. The
// warning appears only once a secret is actually written to the file: a
// missing keychain that never had to hold anything is nobody's concern.
type fallbackStore struct {
	kc   Store
	file *fileStore

	mu     sync.Mutex
	broken bool
	reason string // why the keychain failed
	warn   string
	what   string // what it holds, for the warning: "" = tokens
}

func (s *fallbackStore) useFile() (broken bool) {
	lock.With(&s.mu, func() { broken = s.broken })
	return broken
}

func (s *fallbackStore) fail(err error) {
	lock.With(&s.mu, func() {
		if !s.broken {
			s.broken = true
			s.reason = keychainReason(err)
		}
	})
}

// stored records that a secret went to the file: from now on the warning
// says so.
func (s *fallbackStore) stored() {
	lock.With(&s.mu, func() {
		if s.warn == "" {
			what := s.what
			if what == "" {
				what = "tokens"
			}
			s.warn = fmt.Sprintf("no keychain (%s): %s stored in %s (0600)", s.reason, what, s.file.path)
		}
	})
}

// keychainReason keeps the warning short and free of backend noise.
func keychainReason(err error) string {
	if errors.Is(err, ErrKeychainTimeout) {
		return "it did not answer in time"
	}
	return err.Error()
}

// Warning is the fallback notice, or "" until a secret was stored in the
// file.
func (s *fallbackStore) Warning() (warn string) {
	lock.With(&s.mu, func() { warn = s.warn })
	return warn
}

func isContextErr(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// Get reads key from the keychain, then from the file.
func (s *fallbackStore) Get(ctx context.Context, key string) (string, error) {
	if !s.useFile() {
		v, err := s.kc.Get(ctx, key)
		switch {
		case err == nil:
			return v, nil
		case errors.Is(err, ErrNotFound), isContextErr(err):
		default:
			s.fail(err)
		}
		if isContextErr(err) {
			return "", err
		}
	}
	return s.file.Get(ctx, key)
}

// Set writes key to the keychain, or to the file once the keychain failed.
func (s *fallbackStore) Set(ctx context.Context, key, value string) error {
	if !s.useFile() {
		err := s.kc.Set(ctx, key, value)
		if err == nil {
			// A stale copy in the file must not shadow the keychain later.
			_ = s.file.Delete(ctx, key)
			return nil
		}
		if isContextErr(err) {
			return err
		}
		s.fail(err)
	}
	if err := s.file.Set(ctx, key, value); err != nil {
		return err
	}
	s.stored()
	return nil
}

// Delete removes key from both places.
func (s *fallbackStore) Delete(ctx context.Context, key string) error {
	kcErr := ErrNotFound
	if !s.useFile() {
		kcErr = s.kc.Delete(ctx, key)
		if kcErr != nil && !errors.Is(kcErr, ErrNotFound) && !isContextErr(kcErr) {
			s.fail(kcErr)
		}
	}
	fErr := s.file.Delete(ctx, key)
	if kcErr == nil || fErr == nil {
		return nil
	}
	if errors.Is(kcErr, ErrNotFound) && errors.Is(fErr, ErrNotFound) {
		return ErrNotFound
	}
	if !errors.Is(fErr, ErrNotFound) {
		return fErr
	}
	return nil
}
