package platform

import (
	"path/filepath"
	"runtime"
	"testing"
)

// The config and cache directories are mcpdeck's under the ones the OS
// names (here the XDG variables), and when the OS can name none, an error:
// never a shared fallback.
func TestDefaultDirs(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" || runtime.GOOS == "ios" || runtime.GOOS == "plan9" {
		t.Skip("the XDG variables decide only on other Unix systems")
	}
	base := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(base, "config"))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(base, "cache"))
	if got, err := ConfigDir(); err != nil || got != filepath.Join(base, "config", "mcpdeck") {
		t.Errorf("ConfigDir() = %q, %v", got, err)
	}
	if got, err := CacheDir(); err != nil || got != filepath.Join(base, "cache", "mcpdeck") {
		t.Errorf("CacheDir() = %q, %v", got, err)
	}
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "")
	if got, err := ConfigDir(); err == nil {
		t.Errorf("ConfigDir() without a home = %q", got)
	}
	if got, err := CacheDir(); err == nil {
		t.Errorf("CacheDir() without a home = %q", got)
	}
}
