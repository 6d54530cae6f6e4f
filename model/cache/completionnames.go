package cache

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/platform"
)

// nameCacheDir, under the cache directory, holds what shell completion
// learned from each server: the names of its tools, prompts and resources,
// so a second TAB needs no connection. It is a cache: losing it costs one
// connection.
const nameCacheDir = "completion"

// nameCacheTTL is how long a server's cached names are offered before it is
// asked again.
const nameCacheTTL = 10 * time.Minute

// maxNameCache bounds a cache file read back (a server's names, not data).
const maxNameCache = 4 << 20

// ServerNames is what completion offers for one server definition.
type ServerNames struct {
	Hash      string    `json:"hash"` // ConfigHash of the definition they came from
	At        time.Time `json:"at"`
	Tools     []string  `json:"tools,omitempty"`
	Prompts   []string  `json:"prompts,omitempty"`
	Resources []string  `json:"resources,omitempty"`
	// Args are each tool's argument names (its input schema's
	// properties), for completing key= after `call SERVER TOOL`.
	ToolArgs map[string][]string `json:"toolArgs,omitempty"`
}

// nameCachePath is the file of the definition with hash: by hash, not by
// server name, so a name from a config file never becomes a path.
func nameCachePath(cacheDir, hash string) string {
	return filepath.Join(cacheDir, nameCacheDir, "names-"+hash+".json")
}

// ReadServerNames returns the cached names of the definition with hash, if
// they are younger than nameCacheTTL at now.
func ReadServerNames(cacheDir, hash string, now time.Time) (ServerNames, bool) {
	if hash == "" {
		return ServerNames{}, false
	}
	f, err := os.Open(nameCachePath(cacheDir, hash))
	if err != nil {
		return ServerNames{}, false
	}
	defer f.Close()
	var n ServerNames
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() || st.Size() > maxNameCache {
		return ServerNames{}, false
	}
	if json.NewDecoder(f).Decode(&n) != nil || n.Hash != hash || now.Sub(n.At) > nameCacheTTL || n.At.After(now) {
		return ServerNames{}, false
	}
	return n, true
}

// WriteServerNames caches n (whose Hash names the definition) atomically,
// private to the user (0600 in a 0700 directory).
func WriteServerNames(cacheDir string, n ServerNames) error {
	if n.Hash == "" {
		return fmt.Errorf("%w: server names without a definition hash", model.ErrInvalid)
	}
	dir := filepath.Join(cacheDir, nameCacheDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("cannot create %s: %w", dir, err)
	}
	b, err := json.Marshal(n)
	if err != nil {
		return err
	}
	return platform.WriteFile(nameCachePath(cacheDir, n.Hash), b, platform.WriteOptions{NewMode: 0o600, Disposable: true})
}
