package engine

import (
	"fmt"
	"os"

	"github.com/mcpdeck/mcpdeck/model/platform"
)

// defaultCacheDir is where an engine keeps its cache when Options.CacheDir
// is unset: platform.CacheDir, or, where the OS names no cache directory
// (no home), a new private directory under the temp dir for this engine
// alone. Never a fixed name there: another user of the machine could
// create it first, then read the engine's results and logs or plant links
// among them.
func defaultCacheDir() (string, error) {
	if dir, err := platform.CacheDir(); err == nil {
		return dir, nil
	}
	dir, err := os.MkdirTemp("", "mcpdeck-cache-")
	if err != nil {
		return "", fmt.Errorf("engine: no cache directory (the OS names none, and the temp dir refused one): %w", err)
	}
	return dir, nil
}
