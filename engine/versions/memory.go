// Package versions remembers the protocol version each definition
// negotiated, so that its next connection offers that version first
// instead of finding it again (a server on an older protocol may die on a
// request it does not know). The file is model/cache's; this keeps the
// engine's copy of it.
package versions

import (
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	"github.com/mcpdeck/mcpdeck/engine/lock"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/cache"
)

// Memory is the engine's copy of the file remembering each definition's
// negotiated protocol version (cache.ProtocolMemoryFile in the cache
// directory): read once, on the first connect, instead of on every
// attempt of every server; kept in step with what this engine writes.
type Memory struct {
	path string
	log  *slog.Logger

	mu     sync.Mutex
	loaded bool
	m      map[string]cache.RememberedProtocol
}

// New is the memory kept in cacheDir; log hears of a file it cannot read
// or write (which costs a negotiation, nothing more).
func New(cacheDir string, log *slog.Logger) *Memory {
	return &Memory{path: filepath.Join(cacheDir, cache.ProtocolMemoryFile), log: log}
}

// Remembered is the protocol version srv negotiated last time, to be
// offered first; "" when nothing is remembered or its definition pins one.
func (pm *Memory) Remembered(srv model.Server) (v string) {
	if srv.Config.ProtocolVersion != "" || srv.Hash == "" {
		return ""
	}
	lock.With(&pm.mu, func() {
		if !pm.loaded {
			m, err := cache.ReadProtocols(pm.path)
			if err != nil {
				pm.log.Debug("protocol memory", "err", err)
			}
			pm.m, pm.loaded = m, true
		}
		v = cache.RememberedVersion(pm.m, srv.Hash, time.Now())
	})
	return v
}

// Remember records the version srv negotiated when it differs from what
// was remembered (had), in the file and in the engine's copy.
func (pm *Memory) Remember(srv model.Server, had, got string) {
	if got == "" || got == had || srv.Config.ProtocolVersion != "" || srv.Hash == "" {
		return
	}
	now := time.Now()
	if err := cache.RememberProtocol(pm.path, srv.Hash, got, now); err != nil {
		pm.log.Debug("protocol memory", "err", err)
	}
	lock.With(&pm.mu, func() {
		if pm.m == nil {
			pm.m = map[string]cache.RememberedProtocol{}
		}
		pm.m[srv.Hash] = cache.RememberedProtocol{Version: got, At: now}
	})
}
