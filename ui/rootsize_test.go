package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxRootFiles bounds the root model's package: a screen or component
// that needs nothing of the root gets a package of its own under ui/
// (as ui/form, ui/picker and ui/filterbox did), so that the root stays the
// model that wires them together.
const maxRootFiles = 30

func TestRootStaysSmall(t *testing.T) {
	n, err := nonTestGoFiles(".")
	if err != nil {
		t.Fatal(err)
	}
	if n > maxRootFiles {
		t.Fatalf("ui/ holds %d non-test Go files (at most %d): move a component that needs nothing of the root into a package of its own", n, maxRootFiles)
	}
}

func TestRootSizeCountsEveryOSFile(t *testing.T) {
	dir := t.TempDir()
	for i := range maxRootFiles + 1 {
		name := fmt.Sprintf("f%d.go", i)
		if i == 0 {
			name = "f_windows.go" // another OS's file counts too
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte("package ui\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"f_test.go", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("package ui\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := nonTestGoFiles(dir); err != nil || n != maxRootFiles+1 {
		t.Fatalf("counted %d files (%v), want %d: the planted root would pass", n, err, maxRootFiles+1)
	}
}

// nonTestGoFiles counts dir's Go files but its tests, those of every OS.
func nonTestGoFiles(dir string) (int, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	n := 0
	for _, name := range names {
		if !strings.HasSuffix(name, "_test.go") {
			n++
		}
	}
	return n, err
}
