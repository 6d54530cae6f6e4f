//go:build linux

package filewatch

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// TestConfigWatchSkipsOtherFiles: writes to other files in a config file's
// directory reach the watcher not at all (the kernel is not asked for
// them); the config file written in place, replaced by a rename or
// created are reported.
func TestConfigWatchSkipsOtherFiles(t *testing.T) {
	dir := t.TempDir()
	cfg, other := filepath.Join(dir, ".mcp.json"), filepath.Join(dir, "build.log")
	replaced, created := filepath.Join(dir, "settings.json"), filepath.Join(dir, "settings.local.json")
	for _, f := range []string{cfg, other, replaced} {
		if err := os.WriteFile(f, []byte("{}"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	n, err := newNotifier()
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = n.close()
		if _, open := <-n.names(); open {
			t.Error("names still open after close")
		}
	}()
	for _, f := range []string{cfg, replaced, created} {
		if err := n.watch(f); err != nil {
			t.Fatal(err)
		}
	}
	next := func() string {
		t.Helper()
		select {
		case name := <-n.names():
			return name
		case <-time.After(10 * time.Second):
			t.Fatal("no event within 10 s")
			return ""
		}
	}
	for i := range 200 {
		if err := os.WriteFile(other, []byte(strconv.Itoa(i)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(cfg, []byte(`{"mcpServers":{}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := next(); got != cfg {
		t.Fatalf("first event after 200 writes to another file and one to the config: %q, want %q", got, cfg)
	}
	tmp := replaced + ".tmp"
	if err := os.WriteFile(tmp, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, replaced); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(created, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for !seen[replaced] || !seen[created] {
		got := next()
		if got != cfg && got != tmp && got != replaced && got != created {
			t.Fatalf("event for %q", got)
		}
		seen[got] = true
	}
}
