package model

import (
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Holders of the lock on one file never overlap, and the sidecar is gone
// once everyone is done.
func TestLockFileExcludes(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no flock here: lockFile only creates the directory (filelock_other.go)")
	}
	path := filepath.Join(t.TempDir(), "sub", "settings.json")
	var inside, overlaps atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				unlock, err := lockFile(path)
				if err != nil {
					t.Error(err)
					return
				}
				if inside.Add(1) != 1 {
					overlaps.Add(1)
				}
				// A little work inside, so an unlocked overlap would show.
				_ = os.WriteFile(path, []byte("{}"), 0o600)
				inside.Add(-1)
				unlock()
			}
		}()
	}
	wg.Wait()
	if n := overlaps.Load(); n != 0 {
		t.Errorf("%d overlapping lock holders", n)
	}
	if _, err := os.Stat(path + ".lock"); !os.IsNotExist(err) {
		t.Errorf("lock sidecar left behind: %v", err)
	}
}

func TestWriteFileAtomicKeepsModeAndCleansUp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.json")
	if err := writeFileAtomic(path, []byte("1"), 0o600); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("new file mode %v", st.Mode().Perm())
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := writeFileAtomic(path, []byte("2"), 0o600); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o644 {
		t.Errorf("existing mode not kept: %v", st.Mode().Perm())
	}
	if b, _ := os.ReadFile(path); string(b) != "2" {
		t.Errorf("content %q", b)
	}
	// A directory that cannot take the temp file: error, original intact.
	if err := writeFileAtomic(filepath.Join(dir, "missing", "x.json"), []byte("3"), 0o600); err == nil {
		t.Error("want an error writing into a missing directory")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temp files left: %v", entries)
	}
}

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
	if _, err := AddServer(f.opts(), ScopeUser, "s", ServerConfig{Command: "x"}); err != nil {
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
