package cache

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/mcpdeck/mcpdeck/model/platform"
)

// ProtocolMemoryFile, in the cache directory, remembers the MCP protocol
// version each server definition negotiated (by ConfigHash), so that the
// next start offers it first and an older server is not probed for the
// newest protocol every time.
const ProtocolMemoryFile = "protocols.json"

// protocolMemoryTTL is how long a remembered version is trusted. After that
// the server is probed again (it may have been upgraded) and entries of
// definitions that are gone are dropped.
const protocolMemoryTTL = 7 * 24 * time.Hour

// RememberedProtocol is one entry of ProtocolMemoryFile.
type RememberedProtocol struct {
	Version string    `json:"version"`
	At      time.Time `json:"at"` // when it was first negotiated
}

// ReadProtocols reads the protocol memory at path. A missing file is an
// empty memory; so is a malformed one (it is a cache), reported as an error
// beside the empty map.
func ReadProtocols(path string) (map[string]RememberedProtocol, error) {
	m := map[string]RememberedProtocol{}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return m, fmt.Errorf("cannot read %s: %w", path, err)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return map[string]RememberedProtocol{}, fmt.Errorf("%s is not valid JSON (it will be rewritten): %w", path, err)
	}
	return m, nil
}

// RememberedVersion returns the version remembered for hash at now, or ""
// when there is none or it is older than protocolMemoryTTL.
func RememberedVersion(m map[string]RememberedProtocol, hash string, now time.Time) string {
	r, ok := m[hash]
	if !ok || now.Sub(r.At) > protocolMemoryTTL {
		return ""
	}
	return r.Version
}

// RememberProtocol records that the definition with hash negotiated
// version, unless that is remembered already (its time is kept, so the
// entry still expires), and drops expired entries. The file is rewritten
// atomically under a lock, so concurrent mcpdeck processes keep each
// other's entries.
func RememberProtocol(path, hash, version string, now time.Time) error {
	unlock, err := platform.Lock(path)
	if err != nil {
		return err
	}
	defer unlock()
	m, _ := ReadProtocols(path) // a malformed memory is replaced
	if RememberedVersion(m, hash, now) == version {
		return nil
	}
	for h, r := range m {
		if now.Sub(r.At) > protocolMemoryTTL {
			delete(m, h)
		}
	}
	m[hash] = RememberedProtocol{Version: version, At: now.UTC()}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return platform.WriteFile(path, append(b, '\n'), platform.WriteOptions{NewMode: 0o600, Disposable: true})
}
