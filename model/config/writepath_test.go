package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/testdata/winetest"
)

// symlink makes link point at target, skipping where links cannot be made
// (Windows without the privilege).
func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := winetest.Symlink(t, target, link); err != nil {
		t.Skipf("cannot make symlinks here: %v", err)
	}
}

func mustBeLink(t *testing.T, path string) {
	t.Helper()
	if st, err := os.Lstat(path); err != nil {
		t.Errorf("%s is no longer a symlink: %v", path, err)
	} else if st.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("%s is no longer a symlink (%v)", path, st.Mode())
	}
}

// noStrays fails when a directory holds anything but the listed names
// (temporary or lock files left behind by a write).
func noStrays(t *testing.T, dir string, want ...string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("%s holds %v, want %v", dir, got, want)
	}
}

// A settings.json that is a chain of links into a dotfiles repository is
// written where the chain ends, with that file's mode; the links stay.
func TestWriteThroughSymlinkChainKeepsLinks(t *testing.T) {
	f := newFixture(t)
	dotfiles := filepath.Join(f.home, "dotfiles")
	real := f.write(filepath.Join(dotfiles, "mcpdeck.json"), `{"theme": "dark"}`)
	if err := os.Chmod(real, 0o640); err != nil {
		t.Fatal(err)
	}
	hop := filepath.Join(f.home, "links", "settings.json")
	symlink(t, filepath.Join("..", "dotfiles", "mcpdeck.json"), hop) // relative
	symlink(t, hop, f.userFile())

	if _, err := AddServer(f.opts(), model.ScopeUser, "s", model.ServerConfig{Command: "x"}); err != nil {
		t.Fatal(err)
	}
	mustBeLink(t, f.userFile())
	mustBeLink(t, hop)
	if got := f.read(real); !strings.Contains(got, `"theme": "dark"`) || !strings.Contains(got, `"s"`) {
		t.Errorf("target not updated in place: %s", got)
	}
	if st, _ := os.Stat(real); runtime.GOOS != "windows" && st.Mode().Perm() != 0o640 {
		t.Errorf("target mode %v, want 0640 kept", st.Mode().Perm())
	}
	noStrays(t, dotfiles, "mcpdeck.json", "mcpdeck.json.backup") // the backup is next to the file written
	noStrays(t, f.cfg, "settings.json")
	if _, err := RemoveServer(f.opts(), model.ScopeUser, "s"); err != nil {
		t.Fatal(err)
	}
	mustBeLink(t, f.userFile())
	if got := f.read(real); strings.Contains(got, `"s"`) {
		t.Errorf("removal did not reach the target: %s", got)
	}

	// A dangling link: the file is created where it points.
	g := newFixture(t)
	want := filepath.Join(g.home, "dotfiles", "new.json")
	if err := os.MkdirAll(filepath.Dir(want), 0o755); err != nil {
		t.Fatal(err)
	}
	symlink(t, want, g.userFile())
	if _, err := AddServer(g.opts(), model.ScopeUser, "s", model.ServerConfig{Command: "x"}); err != nil {
		t.Fatal(err)
	}
	mustBeLink(t, g.userFile())
	if st, err := os.Stat(want); err != nil || runtime.GOOS != "windows" && st.Mode().Perm() != 0o600 {
		t.Errorf("dangling link's target: %v %v, want a new 0600 file", st, err)
	}
}

// A project file that leads out of the project is never written through:
// the repository would otherwise choose which of the person's files to
// rewrite. Links that stay inside the project are followed.
func TestProjectSymlinkOutsideIsRefused(t *testing.T) {
	f := newFixture(t)
	outside := f.write(f.userFile(), `{"mcpServers": {"mine": {"command": "me"}}}`)
	symlink(t, outside, f.projectFile())
	for _, write := range []func() error{
		func() error {
			_, err := AddServer(f.opts(), model.ScopeProject, "evil", model.ServerConfig{Command: "x"})
			return err
		},
		func() error { _, err := RemoveServer(f.opts(), model.ScopeProject, "mine"); return err },
	} {
		err := write()
		want := "refusing to write " + f.projectFile() + ": it is a symlink to " + outside + ", outside the project"
		if !errors.Is(err, model.ErrFileUnusable) || !strings.Contains(err.Error(), want) {
			t.Errorf("err = %v, want ErrFileUnusable containing %q", err, want)
		}
	}
	if got := f.read(outside); got != `{"mcpServers": {"mine": {"command": "me"}}}` {
		t.Errorf("outside file changed: %s", got)
	}
	mustBeLink(t, f.projectFile())

	// Inside the project a link is fine, and stays a link.
	g := newFixture(t)
	inside := g.write(filepath.Join(g.proj, "config", "mcp.json"), `{}`)
	symlink(t, filepath.Join("config", "mcp.json"), g.projectFile())
	if _, err := AddServer(g.opts(), model.ScopeProject, "ok", model.ServerConfig{Command: "x"}); err != nil {
		t.Fatal(err)
	}
	mustBeLink(t, g.projectFile())
	if !strings.Contains(g.read(inside), `"ok"`) {
		t.Errorf("inside target not written: %s", g.read(inside))
	}
}

// Writing a file whose target is not a regular file is refused at once,
// with the same words as reading it.
func TestEditRefusesNonFile(t *testing.T) {
	f := newFixture(t)
	if err := os.MkdirAll(f.userFile(), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := AddServer(f.opts(), model.ScopeUser, "s", model.ServerConfig{Command: "x"})
	if !errors.Is(err, model.ErrFileUnusable) || !strings.Contains(err.Error(), "cannot read the file: it is a directory, not a file ("+f.userFile()+")") {
		t.Errorf("err = %v", err)
	}
}
