package engine

import (
	"path/filepath"

	"github.com/mcpdeck/mcpdeck/model"
)

// protocolMemoryPath is the file remembering each definition's negotiated
// protocol version (model.ProtocolMemoryFile in the cache directory).
func (e *Engine) protocolMemoryPath() string {
	return filepath.Join(e.opts.CacheDir, model.ProtocolMemoryFile)
}

// rememberedVersion is the protocol version srv negotiated last time, to be
// offered first; "" when nothing is remembered or its definition pins one.
func (e *Engine) rememberedVersion(srv model.Server) string {
	if srv.Config.ProtocolVersion != "" || srv.Hash == "" {
		return ""
	}
	m, err := model.ReadProtocols(e.protocolMemoryPath())
	if err != nil {
		e.log.Debug("protocol memory", "err", err)
	}
	return model.RememberedVersion(m, srv.Hash, e.clock.Now())
}

// rememberVersion records the version srv negotiated when it differs from
// what was remembered (had).
func (e *Engine) rememberVersion(srv model.Server, had, got string) {
	if got == "" || got == had || srv.Config.ProtocolVersion != "" || srv.Hash == "" {
		return
	}
	if err := model.RememberProtocol(e.protocolMemoryPath(), srv.Hash, got, e.clock.Now()); err != nil {
		e.log.Debug("protocol memory", "err", err)
	}
}
