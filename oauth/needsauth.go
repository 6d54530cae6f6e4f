package oauth

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// needsAuthCache remembers, per server, when it last answered 401 without a
// usable token, so that a restart within the TTL shows needs-auth at once
// instead of probing again. With no path it lives in memory.
type needsAuthCache struct {
	path string
	ttl  time.Duration
	now  func() time.Time

	mu  sync.Mutex
	mem map[string]time.Time
}

func (c *needsAuthCache) load() map[string]time.Time {
	if c.path == "" {
		if c.mem == nil {
			c.mem = map[string]time.Time{}
		}
		return c.mem
	}
	m := map[string]time.Time{}
	b, err := os.ReadFile(c.path)
	if err == nil {
		// A broken cache file is only a cache: start afresh.
		_ = json.Unmarshal(b, &m)
	}
	return m
}

func (c *needsAuthCache) save(m map[string]time.Time) error {
	if c.path == "" {
		c.mem = m
		return nil
	}
	now := c.now()
	for k, t := range m {
		if now.Sub(t) >= c.ttl {
			delete(m, k)
		}
	}
	if err := os.MkdirAll(filepath.Dir(c.path), 0o700); err != nil {
		return err
	}
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	tmp := c.path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, c.path)
}

func (c *needsAuthCache) get(key string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.load()[key]
	if !ok {
		return false
	}
	d := c.now().Sub(t)
	return d >= 0 && d < c.ttl
}

func (c *needsAuthCache) set(key string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := c.load()
	m[key] = c.now()
	return c.save(m)
}

func (c *needsAuthCache) clear(key string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := c.load()
	if _, ok := m[key]; !ok {
		return nil
	}
	delete(m, key)
	err := c.save(m)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}
