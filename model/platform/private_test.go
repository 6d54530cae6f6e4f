package platform

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/winetest"
)

// TestCreatePrivate: the file is created 0600; a symbolic link at the path
// is refused (exclusive or not) and its target left alone; exclusive
// refuses an existing file; otherwise an existing file is emptied and made
// 0600; a directory is refused.
func TestCreatePrivate(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out")
	f, err := CreatePrivate(p, true)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.WriteString("one")
	_ = f.Close()
	if st, _ := os.Stat(p); runtime.GOOS != "windows" && st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", st.Mode().Perm())
	}
	if _, err := CreatePrivate(p, true); !errors.Is(err, fs.ErrExist) {
		t.Errorf("exclusive over an existing file: %v", err)
	}
	if err := os.Chmod(p, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err = CreatePrivate(p, false)
	if err != nil {
		t.Fatal(err)
	}
	_ = f.Close()
	if st, _ := os.Stat(p); st.Size() != 0 || (runtime.GOOS != "windows" && st.Mode().Perm() != 0o600) {
		t.Errorf("existing file not emptied and made private: size %d mode %v", st.Size(), st.Mode().Perm())
	}
	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := winetest.Symlink(t, target, link); err != nil {
		t.Skip("no symlinks here:", err)
	}
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink(filepath.Join(dir, "nowhere"), dangling); err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{link, dangling} {
		for _, excl := range []bool{true, false} {
			if _, err := CreatePrivate(l, excl); err == nil || !strings.Contains(err.Error(), "symbolic link") && !errors.Is(err, fs.ErrExist) {
				t.Errorf("CreatePrivate(%s, %v) followed the link: %v", l, excl, err)
			}
		}
	}
	if b, _ := os.ReadFile(target); string(b) != "keep" {
		t.Errorf("the link's target was written: %q", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "nowhere")); err == nil {
		t.Error("a dangling link's target was created")
	}
	if _, err := CreatePrivate(dir, false); err == nil {
		t.Error("a directory was accepted")
	}
}
