package engine

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/mcpdeck/mcpdeck/transports"
)

// An engine whose cache dir is unset uses mcpdeck's user cache directory;
// where the OS names none (no home), each engine gets a new 0700 directory
// of its own, never a fixed name under the temp dir that another user of
// the machine could have made first.
func TestDefaultCacheDirIsNeverShared(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		t.Skip("the XDG variables and HOME decide the cache dir only on other Unix systems")
	}
	newCache := func() string {
		t.Helper()
		e, err := New(Options{Factory: transports.NewFactory()})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = e.Close() })
		return e.opts.CacheDir
	}
	xdg := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", xdg)
	if got := newCache(); got != filepath.Join(xdg, "mcpdeck") {
		t.Errorf("cache dir %q, want mcpdeck's in XDG_CACHE_HOME", got)
	}

	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "")
	t.Setenv("TMPDIR", t.TempDir())
	a, b := newCache(), newCache()
	for _, dir := range []string{a, b} {
		st, err := os.Stat(dir)
		if err != nil || !st.IsDir() || st.Mode().Perm() != 0o700 {
			t.Errorf("cache dir %q: %v, %v; want a 0700 directory", dir, st, err)
		}
	}
	if a == b || a == filepath.Join(os.TempDir(), "mcpdeck") {
		t.Errorf("cache dirs %q and %q: shared", a, b)
	}
}
