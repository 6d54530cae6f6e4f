package platform

import (
	"fmt"
	"os"
	"path/filepath"
)

// appDir is mcpdeck's directory name inside the user config and cache
// directories.
const appDir = "mcpdeck"

// ConfigDir returns mcpdeck's directory in the user config directory
// (os.UserConfigDir: $XDG_CONFIG_HOME or ~/.config on Linux, ~/Library/
// Application Support on macOS, %AppData% on Windows): settings.json, the
// private state of projects, credentials.json. It fails only when the OS
// cannot tell (no home directory).
func ConfigDir() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("cannot determine the user config directory: %w", err)
	}
	return filepath.Join(dir, appDir), nil
}

// CacheDir returns mcpdeck's directory in the user cache directory
// (os.UserCacheDir: $XDG_CACHE_HOME or ~/.cache on Linux, ~/Library/Caches
// on macOS, %LocalAppData% on Windows): stderr logs, large results, the
// protocol memory, the completion and needs-auth caches. It fails only when
// the OS cannot tell; there is no shared fallback (a fixed name under the
// temp directory, which another user of the machine could create first).
func CacheDir() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("cannot determine the user cache directory: %w", err)
	}
	return filepath.Join(dir, appDir), nil
}
