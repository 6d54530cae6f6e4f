package mcpcmd

import (
	"path/filepath"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/cache"
	"github.com/mcpdeck/mcpdeck/model/platform"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// protocolMemory reads the protocol versions servers negotiated, as the
// engine remembers them in the user cache directory; empty when there is
// none.
func protocolMemory() map[string]cache.RememberedProtocol {
	dir, err := platform.CacheDir()
	if err != nil {
		return nil
	}
	m, _ := cache.ReadProtocols(filepath.Join(dir, cache.ProtocolMemoryFile))
	return m
}

// withProtocol fills in the protocol version: the one the definition pins,
// else the one the server negotiated last (while it is still trusted).
func (v serverView) withProtocol(s model.Server, mem map[string]cache.RememberedProtocol) serverView {
	if s.Config.ProtocolVersion != "" {
		v.ProtocolVersion, v.ProtocolPinned = s.Config.ProtocolVersion, true
		return v
	}
	v.ProtocolVersion = cache.RememberedVersion(mem, s.Hash, time.Now())
	return v
}

// protocolText is the Protocol line of `mcp get`.
func protocolText(v serverView) string {
	switch {
	case v.ProtocolPinned:
		return textsafe.SanitizeLine(v.ProtocolVersion) + " (pinned by protocolVersion)"
	case v.ProtocolVersion != "":
		return textsafe.SanitizeLine(v.ProtocolVersion) + " (negotiated last time; offered first)"
	}
	return "negotiated on connect: 2026-07-28, else what the server answers (2025-11-25, 2025-06-18, 2025-03-26)"
}
