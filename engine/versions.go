package engine

import (
	"path/filepath"
	"sync"
	"time"

	"github.com/mcpdeck/mcpdeck/engine/lock"
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
func (r *runner) protocolMemoryPath() string {
	return filepath.Join(r.e.opts.CacheDir, cache.ProtocolMemoryFile)
}

// rememberedVersion is the protocol version srv negotiated last time, to be
// offered first; "" when nothing is remembered or its definition pins one.
func (r *runner) rememberedVersion(srv model.Server) (v string) {
	if srv.Config.ProtocolVersion != "" || srv.Hash == "" {
		return ""
	}
	pm := &r.protocols
	lock.With(&pm.mu, func() {
		if !pm.loaded {
			m, err := cache.ReadProtocols(r.protocolMemoryPath())
			if err != nil {
				r.e.log.Debug("protocol memory", "err", err)
			}
			pm.m, pm.loaded = m, true
		}
		v = cache.RememberedVersion(pm.m, srv.Hash, time.Now())
	})
	return v
}

// rememberVersion records the version srv negotiated when it differs from
// what was remembered (had), in the file and in the engine's copy.
func (r *runner) rememberVersion(srv model.Server, had, got string) {
	if got == "" || got == had || srv.Config.ProtocolVersion != "" || srv.Hash == "" {
		return
	}
	now := time.Now()
	if err := cache.RememberProtocol(r.protocolMemoryPath(), srv.Hash, got, now); err != nil {
		r.e.log.Debug("protocol memory", "err", err)
	}
	pm := &r.protocols
	lock.With(&pm.mu, func() {
		if pm.m == nil {
			pm.m = map[string]cache.RememberedProtocol{}
		}
		pm.m[srv.Hash] = cache.RememberedProtocol{Version: got, At: now}
	})
}
