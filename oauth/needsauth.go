package oauth

import (
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/lock"
	"github.com/mcpdeck/mcpdeck/model/platform"
)

// needsAuthCache remembers, per server, when it last answered 401 without a
// usable token, so that a restart within the TTL shows needs-auth at once
// instead of probing again. With no path it lives in memory.
type needsAuthCache struct {
	path string
	ttl  time.Duration
	now  func() time.Time
	log  *slog.Logger

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

// save replaces the file with m, less the entries older than the TTL.
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
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return platform.WriteFile(c.path, b, platform.WriteOptions{NewMode: 0o600, Private: true})
}

// update runs a read-modify-write of the cache under the process mutex and
// the file's lock, so another mcpdeck process marking a server at the same
// time keeps its entry; change reports whether m changed.
func (c *needsAuthCache) update(change func(m map[string]time.Time) bool) (err error) {
	lock.With(&c.mu, func() {
		if c.path != "" {
			if err = os.MkdirAll(filepath.Dir(c.path), 0o700); err != nil {
				return
			}
			var unlock func()
			if unlock, err = platform.Lock(c.path); err != nil {
				return
			}
			defer unlock()
		}
		m := c.load()
		if change(m) {
			err = c.save(m)
		}
	})
	return err
}

func (c *needsAuthCache) get(key string) (fresh bool) {
	lock.With(&c.mu, func() {
		t, ok := c.load()[key]
		d := c.now().Sub(t)
		fresh = ok && d >= 0 && d < c.ttl
	})
	return fresh
}

func (c *needsAuthCache) set(key string) error {
	return c.update(func(m map[string]time.Time) bool {
		m[key] = c.now()
		return true
	})
}

func (c *needsAuthCache) clear(key string) error {
	var ok bool
	lock.With(&c.mu, func() { _, ok = c.load()[key] })
	if !ok {
		return nil // nothing to clear: no directory, lock or write
	}
	return c.update(func(m map[string]time.Time) bool {
		_, ok := m[key]
		delete(m, key)
		return ok
	})
}

// mark records that srv wants authentication; a cache that cannot be
// saved is only logged: the verdict still stands in this process's answer.
func (c *needsAuthCache) mark(srv model.Server) {
	if err := c.set(stateKey(srv)); err != nil {
		c.log.Warn("needs-auth cache not saved", "server", srv.Name, "err", err)
	}
}

// unmark forgets that srv wanted authentication: it has a token now.
func (c *needsAuthCache) unmark(srv model.Server) {
	if err := c.clear(stateKey(srv)); err != nil {
		c.log.Warn("needs-auth cache not saved", "server", srv.Name, "err", err)
	}
}
