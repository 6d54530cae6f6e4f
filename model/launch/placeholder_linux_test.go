package launch

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpdeck/mcpdeck/model/sandbox"
)

// TestPlaceholdersShared: two servers holding the same placeholders (two
// servers writing one project) share them: the first to stop leaves them
// for the other, the last removes them; a file or directory that is not
// a placeholder (the person's own, or one that appeared meanwhile) is
// never taken for one nor removed.
func TestPlaceholdersShared(t *testing.T) {
	dir := t.TempDir()
	phs := []sandbox.Placeholder{{Path: filepath.Join(dir, ".envrc")}, {Path: filepath.Join(dir, ".vscode"), Dir: true}}
	a, err := holdPlaceholders(phs)
	if err != nil {
		t.Fatal(err)
	}
	b, err := holdPlaceholders(phs)
	if err != nil {
		t.Fatal(err)
	}
	for _, ph := range phs {
		st, err := os.Lstat(ph.Path)
		if err != nil || st.IsDir() != ph.Dir || st.Mode().Perm()&0o222 != 0 {
			t.Fatalf("%s: %v %v", ph.Path, st, err)
		}
	}
	a.release()
	for _, ph := range phs {
		if _, err := os.Lstat(ph.Path); err != nil {
			t.Errorf("%s went while another server holds it: %v", ph.Path, err)
		}
	}
	b.release()
	for _, ph := range phs {
		if _, err := os.Lstat(ph.Path); err == nil {
			t.Errorf("%s outlived the last server", ph.Path)
		}
	}
	own := filepath.Join(dir, ".npmrc")
	if err := os.WriteFile(own, []byte("registry=x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := holdPlaceholders([]sandbox.Placeholder{{Path: own}}); !errors.Is(err, errNotPlaceholder) {
		t.Errorf("the person's own file taken for a placeholder: %v", err)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, ".yarnrc")); err != nil {
		t.Fatal(err)
	}
	if _, err := holdPlaceholders([]sandbox.Placeholder{{Path: filepath.Join(dir, ".yarnrc")}}); !errors.Is(err, errNotPlaceholder) {
		t.Errorf("a link taken for a placeholder: %v", err)
	}
	if b, _ := os.ReadFile(own); string(b) != "registry=x" {
		t.Errorf("the person's own file changed: %q", b)
	}
}
