// Package winetest lets a test that runs as a Windows test binary under
// Wine (make test-windows, testdata/wine/run.sh) skip what Wine 8 does
// not do, and nothing else: each skip names the Wine behaviour, and on
// real Windows, and on every other system, the test runs.
package winetest

import (
	"errors"
	"io/fs"
	"os"
	"testing"
)

// NoSymlinks is the Wine 8 behaviour Symlink skips on.
const NoSymlinks = "Wine 8's CreateSymbolicLinkW is a stub: it reports success and makes no link"

// Skip skips t under Wine, naming behaviour: what Wine does that real
// Windows does not.
func Skip(t testing.TB, behaviour string) {
	t.Helper()
	if Detected() {
		t.Skip("under Wine: " + behaviour)
	}
}

// Symlink is os.Symlink for tests, which skips t under Wine, where the
// call succeeds and leaves nothing at newname. Its error is os.Symlink's:
// the caller decides what a system refusing links means.
func Symlink(t testing.TB, oldname, newname string) error {
	t.Helper()
	if err := os.Symlink(oldname, newname); err != nil {
		return err
	}
	if _, err := os.Lstat(newname); errors.Is(err, fs.ErrNotExist) {
		Skip(t, NoSymlinks)
	}
	return nil
}
