package platform

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestBrowserCommand checks the one $BROWSER rule: the first entry, split
// into words, %s replaced by the URL or the URL appended; the platform
// opener when $BROWSER is empty.
func TestBrowserCommand(t *testing.T) {
	const u = "https://as.example/authorize?a=b&c=d"
	sep := "x" + string(os.PathListSeparator) + "y"
	for _, tc := range []struct {
		browser string
		want    []string
	}{
		{"firefox", []string{"firefox", u}},
		{"  firefox --new-window  ", []string{"firefox", "--new-window", u}},
		{"open -a Safari %s --background", []string{"open", "-a", "Safari", u, "--background"}},
		{sep, []string{"x", u}},
		{"", append(platformOpener(), u)},
		{"   ", append(platformOpener(), u)},
	} {
		if got := BrowserCommand(u, tc.browser); !slices.Equal(got, tc.want) {
			t.Errorf("BROWSER=%q: %q, want %q", tc.browser, got, tc.want)
		}
	}
}

// TestBrowserCommandTakesAProgramPathWithASpace: $BROWSER naming a program
// under a directory with a space (macOS's "Application Support") runs that
// program, where splitting it into words ran "/…/Application" instead.
func TestBrowserCommandTakesAProgramPathWithASpace(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "Application Support")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	prog := filepath.Join(dir, "open-url")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	const u = "https://as.example/authorize"
	if got := BrowserCommand(u, prog); !slices.Equal(got, []string{prog, u}) {
		t.Errorf("BROWSER=%q: %q", prog, got)
	}
	if got := BrowserCommand(u, filepath.Join(dir, "missing")+" --new"); len(got) < 3 || got[len(got)-2] != "--new" {
		t.Errorf("a path that is no program is still split into words: %q", got)
	}
}
