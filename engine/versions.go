package engine

import (
	"path/filepath"
	"sync"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/cache"
)

// protocolMemory is the engine's copy of the file remembering each
// definition's negotiated protocol version (cache.ProtocolMemoryFile in the
// cache directory): read once, on the first connect, instead of on every
// attempt of every server; kept in step with what this engine writes.
type protocolMemory struct {
	mu     sync.Mutex
	loaded bool
	m      map[string]cache.RememberedProtocol
}

// protocolMemoryPath is the file behind protocolMemory.
func (e *Engine) protocolMemoryPath() string {
	return filepath.Join(e.opts.CacheDir, cache.ProtocolMemoryFile)
}

// rememberedVersion is the protocol version srv negotiated last time, to be
// offered first; "" when nothing is remembered or its definition pins one.
func (e *Engine) rememberedVersion(srv model.Server) string {
	if srv.Config.ProtocolVersion != "" || srv.Hash == "" {
		return ""
	}
	pm := &e.protocols
	pm.mu.Lock()
	defer pm.mu.Unlock()
	if !pm.loaded {
		m, err := cache.ReadProtocols(e.protocolMemoryPath())
		if err != nil {
			e.log.Debug("protocol memory", "err", err)
		}
		pm.m, pm.loaded = m, true
	}
	return cache.RememberedVersion(pm.m, srv.Hash, time.Now())
}

// rememberVersion records the version srv negotiated when it differs from
// what was remembered (had), in the file and in the engine's copy.
func (e *Engine) rememberVersion(srv model.Server, had, got string) {
	if got == "" || got == had || srv.Config.ProtocolVersion != "" || srv.Hash == "" {
		return
	}
	now := time.Now()
	if err := cache.RememberProtocol(e.protocolMemoryPath(), srv.Hash, got, now); err != nil {
		e.log.Debug("protocol memory", "err", err)
	}
	pm := &e.protocols
	pm.mu.Lock()
	defer pm.mu.Unlock()
	if pm.m == nil {
		pm.m = map[string]cache.RememberedProtocol{}
	}
	pm.m[srv.Hash] = cache.RememberedProtocol{Version: got, At: now}
}
