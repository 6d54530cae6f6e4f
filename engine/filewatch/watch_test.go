package filewatch

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestWatcherCallsOnceAChangeSettles: a file written, then replaced by a
// rename, reaches changed; another file of its directory does not.
func TestWatcherCallsOnceAChangeSettles(t *testing.T) {
	dir := t.TempDir()
	cfg, other := filepath.Join(dir, ".mcp.json"), filepath.Join(dir, "build.log")
	if err := os.WriteFile(cfg, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	changed := make(chan struct{}, 16)
	w, err := New(time.Millisecond, func() { changed <- struct{}{} }, func(err error) { t.Error(err) })
	if err != nil {
		t.Fatal(err)
	}
	w.Update([]string{cfg})
	go w.Run()
	defer w.Close()
	if err := os.WriteFile(other, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if w.relevant(other) {
		t.Errorf("%s is not watched, yet an event for it counts", other)
	}
	tmp := filepath.Join(dir, "new.json")
	if err := os.WriteFile(tmp, []byte(`{"mcpServers":{}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, cfg); err != nil {
		t.Fatal(err)
	}
	select {
	case <-changed:
	case <-time.After(10 * time.Second):
		t.Fatal("a rename into place was not reported within 10 s")
	}
}

// TestCloseWithoutRun: a Watcher made but never run (its owner closed
// meanwhile) closes without waiting for a Run that never comes, and a Run
// that starts after Close ends at once.
func TestCloseWithoutRun(t *testing.T) {
	w, err := New(time.Millisecond, func() {}, func(error) {})
	if err != nil {
		t.Fatal(err)
	}
	closed := make(chan struct{})
	go func() { w.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("Close of a Watcher never run did not return within 10 s")
	}
	ran := make(chan struct{})
	go func() { w.Run(); close(ran) }()
	select {
	case <-ran:
	case <-time.After(10 * time.Second):
		t.Fatal("Run after Close did not end within 10 s")
	}
}
