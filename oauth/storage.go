package oauth

import (
	"context"

	"github.com/mcpdeck/mcpdeck/model/lock"
)

// Storage is where the store keeps tokens and secrets: the OS keychain, or
// the 0600 credentials file and why not the keychain. It is the store's
// own decision (fallbackStore), so what doctor says is what happens.
type Storage struct {
	Keychain bool   // the OS keychain holds them
	File     string // the 0600 file that holds them when the keychain does not (read either way)
	Reason   string // why not the keychain: its error, or that it did not answer in time
}

// probeKey names the entry the store writes and deletes to learn whether
// the keychain can hold a secret.
const probeKey = "mcpdeck-keychain-check"

// probe does what the first write of a secret does: a short entry written
// to the keychain, then deleted. A keychain that fails it sends the store
// to the file for the rest of the process, as a failing Set would; a
// keychain that can read but not write (a locked collection) is caught too.
func (s *fallbackStore) probe(ctx context.Context) {
	if s.useFile() {
		return
	}
	err := s.kc.Set(ctx, probeKey, "1")
	switch {
	case err == nil:
		_ = s.kc.Delete(ctx, probeKey)
	case !isContextErr(err):
		s.fail(err)
	}
}

// storage is where the store keeps secrets now.
func (s *fallbackStore) storage() (st Storage) {
	lock.With(&s.mu, func() { st = Storage{Keychain: !s.broken, File: s.file.path, Reason: s.reason} })
	return st
}

// Storage tries the keychain as the first write of a token would, and
// says where tokens and ${secret:…} values go. It can take up to
// KeyringTimeout twice. With Options.Store it is the zero Storage: the
// caller's store decides.
func (m *Manager) Storage(ctx context.Context) Storage {
	fb := m.vault.fb
	if fb == nil {
		return Storage{}
	}
	fb.probe(ctx)
	return fb.storage()
}
