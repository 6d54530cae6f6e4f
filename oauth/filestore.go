package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/mcpdeck/mcpdeck/model/lock"
	"github.com/mcpdeck/mcpdeck/model/platform"
)

// fileStore keeps secrets in one 0600 JSON file, for machines without a
// keychain (headless Linux without a Secret Service).
type fileStore struct {
	path string
	mu   sync.Mutex
}

func (f *fileStore) load() (map[string]string, error) {
	b, err := os.ReadFile(f.path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading credentials file %s: %w", f.path, err)
	}
	m := map[string]string{}
	if len(b) > 0 {
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, fmt.Errorf("credentials file %s is not valid JSON (%v); move it aside to start afresh", f.path, err.Error())
		}
	}
	return m, nil
}

// save replaces the file with m, 0600 whatever mode it had.
func (f *fileStore) save(m map[string]string) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := platform.WriteFile(f.path, b, platform.WriteOptions{NewMode: 0o600, Private: true}); err != nil {
		return fmt.Errorf("writing credentials file: %w", err)
	}
	return nil
}

// all reads every entry of the file.
func (f *fileStore) all() (m map[string]string, err error) {
	lock.With(&f.mu, func() { m, err = f.load() })
	return m, err
}

// Get reads key.
func (f *fileStore) Get(_ context.Context, key string) (string, error) {
	m, err := f.all()
	if err != nil {
		return "", err
	}
	v, ok := m[key]
	if !ok {
		return "", ErrNotFound
	}
	return v, nil
}

// update runs a read-modify-write under the process mutex and the file lock.
func (f *fileStore) update(change func(map[string]string) error) (err error) {
	lock.With(&f.mu, func() { err = f.updateLocked(change) })
	return err
}

// updateLocked is update's work, under the process mutex.
func (f *fileStore) updateLocked(change func(map[string]string) error) error {
	if err := os.MkdirAll(filepath.Dir(f.path), 0o700); err != nil {
		return fmt.Errorf("creating %s: %w", filepath.Dir(f.path), err)
	}
	unlock, err := platform.Lock(f.path)
	if err != nil {
		return fmt.Errorf("locking the credentials file: %w", err)
	}
	defer unlock()
	m, err := f.load()
	if err != nil {
		return err
	}
	if err := change(m); err != nil {
		return err
	}
	return f.save(m)
}

// Set writes key.
func (f *fileStore) Set(_ context.Context, key, value string) error {
	return f.update(func(m map[string]string) error {
		m[key] = value
		return nil
	})
}

// Delete removes key.
func (f *fileStore) Delete(_ context.Context, key string) error {
	if _, err := os.Stat(f.path); errors.Is(err, fs.ErrNotExist) {
		return ErrNotFound // nothing to lock or create
	}
	return f.update(func(m map[string]string) error {
		if _, ok := m[key]; !ok {
			return ErrNotFound
		}
		delete(m, key)
		return nil
	})
}
