package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxRootFiles bounds the engine package's own source files (tests left
// out, every system's counted). The root holds Engine and the parts that
// need its fields; a group of files that needs none of them (a file
// watcher, an error's wording, a memory kept in a file) goes to a package
// of its own under engine/, which says in its signatures what it needs.
const maxRootFiles = 40

// TestEngineRootStaysSmall fails when the engine package has more than
// maxRootFiles source files.
func TestEngineRootStaysSmall(t *testing.T) {
	names, err := rootSources(".")
	if err != nil {
		t.Fatal(err)
	}
	if len(names) < 10 {
		t.Fatalf("found %d source files: the engine's sources were not found", len(names))
	}
	if len(names) > maxRootFiles {
		t.Errorf("engine/ has %d source files, more than %d: move a group that needs none of Engine's fields to a package under engine/ (%s)",
			len(names), maxRootFiles, strings.Join(names, " "))
	}
}

// TestRootSizeCheckCounts plants one file too many, beside tests and a
// sub-package: the count sees the sources of every system and nothing
// else.
func TestRootSizeCheckCounts(t *testing.T) {
	files := map[string]string{
		"a_test.go":      "package engine\n",
		"sub/b.go":       "package sub\n",
		"notes.md":       "",
		"x_windows.go":   "//go:build windows\n\npackage engine\n",
		"x_linux.go":     "//go:build linux\n\npackage engine\n",
		"y_unix_test.go": "package engine\n",
	}
	for i := range maxRootFiles - 1 {
		files[fmt.Sprintf("f%d.go", i)] = "package engine\n"
	}
	dir := t.TempDir()
	for name, src := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	names, err := rootSources(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != maxRootFiles+1 {
		t.Errorf("counted %d files, want %d: %v", len(names), maxRootFiles+1, names)
	}
}

// rootSources are the names of dir's Go source files, tests left out.
func rootSources(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, ent := range ents {
		if n := ent.Name(); !ent.IsDir() && strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
			out = append(out, n)
		}
	}
	return out, nil
}
