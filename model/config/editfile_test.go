package config

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
)

// Temporary files of an interrupted write are removed by the next write of
// the same file; a fresh one (a writer that may still be at work) and files
// that are not ours are left alone.
func TestInterruptedWriteTempsAreCleaned(t *testing.T) {
	f := newFixture(t)
	f.write(f.userFile(), `{}`)
	old := time.Now().Add(-time.Hour)
	stale := f.write(filepath.Join(f.cfg, ".settings.json.tmp-123456"), `{"half`)
	keep := []string{
		f.write(filepath.Join(f.cfg, ".settings.json.tmp-987654"), `{"fresh`),
		f.write(filepath.Join(f.cfg, ".settings.json.tmp-notours"), `x`),
		f.write(filepath.Join(f.cfg, ".other.json.tmp-123456"), `x`),
	}
	for _, p := range append([]string{stale}, keep[1:]...) {
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := AddServer(f.opts(), model.ScopeUser, "s", model.ServerConfig{Command: "x"}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(stale); !os.IsNotExist(err) {
		t.Errorf("stale temp file still there: %v", err)
	}
	for _, p := range keep {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s was removed: %v", filepath.Base(p), err)
		}
	}
}
