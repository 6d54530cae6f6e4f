package platform

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// writeProgram creates an executable script at path.
func writeProgram(t *testing.T, path, body string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestLookPath checks the one resolver's rule: relative and empty PATH
// entries are never searched, a command with a separator is relative to
// the working directory, and what is not a program file is not found.
func TestLookPath(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses Unix execute bits")
	}
	tree := t.TempDir()
	abs := filepath.Join(t.TempDir(), "bin")
	good := writeProgram(t, filepath.Join(abs, "tool"), "")
	writeProgram(t, filepath.Join(tree, "bin", "tool"), "")
	writeProgram(t, filepath.Join(tree, "tool"), "")
	if err := os.WriteFile(filepath.Join(abs, "data"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	sep := string(os.PathListSeparator)
	for _, tc := range []struct {
		command, path, want string
	}{
		{"tool", "bin" + sep + abs, good},
		{"tool", "" + sep + "." + sep + abs, good},
		{"tool", abs, good},
		{"tool", "bin", ""},
		{"tool", "." + sep + "", ""},
		{"tool", "/nonexistent", ""},
		{"./bin/tool", "", filepath.Join(tree, "bin", "tool")},
		{"bin/../tool", abs, filepath.Join(tree, "tool")},
		{good, "", good},
		{"data", abs, ""},
		{abs, "", ""},
		{"", abs, ""},
	} {
		got, err := LookPath(tc.command, tree, tc.path)
		if got != tc.want {
			t.Errorf("LookPath(%q, PATH=%q) = %q, %v; want %q", tc.command, tc.path, got, err, tc.want)
		}
		if tc.want == "" && !errors.Is(err, ErrNotFound) {
			t.Errorf("LookPath(%q, PATH=%q): err %v is not ErrNotFound", tc.command, tc.path, err)
		}
	}
	if _, err := LookPath("./tool", "relative", ""); !errors.Is(err, ErrNotFound) {
		t.Errorf("a relative command in a relative directory: %v", err)
	}
	_, err := LookPath("tool", tree, "bin")
	if want := `command "tool" not found on PATH (its relative entries are ignored)`; err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
	if _, err := LookPath("./none", tree, ""); err == nil || !strings.Contains(err.Error(), "is not a program file") {
		t.Errorf("error %v", err)
	}
}
