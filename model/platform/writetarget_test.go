package platform

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/winetest"
)

// makeLinks makes each link (key) point at its target (value), skipping
// the test where links cannot be made (Windows without the privilege).
func makeLinks(t *testing.T, links map[string]string) {
	t.Helper()
	for link, target := range links {
		if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := winetest.Symlink(t, target, link); err != nil {
			t.Skipf("cannot make symlinks here: %v", err)
		}
	}
}

func mustEval(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// A directory on the way that is a link out of the bound is caught, as is
// a link whose target does not exist yet; links elsewhere are followed.
func TestWriteTargetBoundary(t *testing.T) {
	root := t.TempDir()
	proj := filepath.Join(root, "proj")
	away := filepath.Join(root, "away")
	if err := os.MkdirAll(away, 0o755); err != nil {
		t.Fatal(err)
	}
	makeLinks(t, map[string]string{
		filepath.Join(proj, "sub"):           away,
		filepath.Join(proj, "dangling.json"): filepath.Join(away, "later.json"),
		filepath.Join(proj, "loop1"):         filepath.Join(proj, "loop2"),
		filepath.Join(proj, "loop2"):         filepath.Join(proj, "loop1"),
	})
	for _, tc := range []struct {
		path string
		link bool
	}{
		{filepath.Join(proj, "sub", "settings.json"), false},
		{filepath.Join(proj, "sub", "new", "settings.json"), false},
		{filepath.Join(proj, "dangling.json"), true},
	} {
		_, err := WriteTarget(tc.path, proj)
		var oe *OutsideError
		if !errors.Is(err, ErrOutside) || !errors.As(err, &oe) || oe.Link != tc.link || !strings.Contains(err.Error(), "outside "+proj) {
			t.Errorf("WriteTarget(%s) = %v, want a refusal (link %v)", tc.path, err, tc.link)
		}
	}
	if _, err := WriteTarget(filepath.Join(proj, "loop1"), proj); err == nil {
		t.Error("a symlink loop resolved")
	}
	// Outside the bound's directory, or with no bound, links go anywhere.
	for _, tc := range []struct{ path, within string }{
		{filepath.Join(proj, "sub", "settings.json"), ""},
		{filepath.Join(away, "x.json"), proj},
	} {
		got, err := WriteTarget(tc.path, tc.within)
		if err != nil || !strings.HasPrefix(got, mustEval(t, away)) {
			t.Errorf("WriteTarget(%s, %q) = %q, %v", tc.path, tc.within, got, err)
		}
	}
	// The bound itself reached through a link (macOS /tmp) still holds.
	makeLinks(t, map[string]string{filepath.Join(root, "projlink"): proj})
	got, err := WriteTarget(filepath.Join(root, "projlink", ".mcp.json"), filepath.Join(root, "projlink"))
	if err != nil || got != filepath.Join(mustEval(t, proj), ".mcp.json") {
		t.Errorf("through a linked root: %q, %v", got, err)
	}
}

// WriteFile writes where a chain of links ends and keeps the links; with a
// bound, a link out of it is refused and its target left alone.
func TestWriteFileKeepsLinksAndItsBound(t *testing.T) {
	root := t.TempDir()
	real := filepath.Join(root, "dotfiles", "cache.json")
	if err := os.MkdirAll(filepath.Dir(real), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(real, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	hop := filepath.Join(root, "links", "hop.json")
	link := filepath.Join(root, "cfg", "cache.json")
	makeLinks(t, map[string]string{hop: filepath.Join("..", "dotfiles", "cache.json"), link: hop})
	if err := WriteFile(link, []byte("new"), WriteOptions{NewMode: 0o600}); err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{link, hop} {
		if st, err := os.Lstat(l); err != nil || st.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("%s is no longer a link (%v)", l, err)
		}
	}
	if b, _ := os.ReadFile(real); string(b) != "new" {
		t.Errorf("target holds %q", b)
	}
	err := WriteFile(link, []byte("evil"), WriteOptions{NewMode: 0o600, Within: filepath.Dir(link)})
	if !errors.Is(err, ErrOutside) {
		t.Errorf("a link out of the bound: %v", err)
	}
	if b, _ := os.ReadFile(real); string(b) != "new" {
		t.Errorf("the refused write changed the target: %q", b)
	}
}
