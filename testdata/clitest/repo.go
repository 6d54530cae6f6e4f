package clitest

import (
	"os"
	"path/filepath"
	"testing"
)

// RepoPath is elem joined under the repository's root (the directory of
// go.mod, found from the working directory up), so a test reads the same
// file from whichever package directory it runs in.
func RepoPath(t testing.TB, elem ...string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(append([]string{dir}, elem...)...)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the working directory")
		}
		dir = parent
	}
}
