package platform

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestWriteFileKeepsModeAndCleansUp(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows files have no Unix mode")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "f.json")
	if err := WriteFile(path, []byte("1"), WriteOptions{NewMode: 0o600}); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("new file mode %v", st.Mode().Perm())
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("2"), WriteOptions{NewMode: 0o600}); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o644 {
		t.Errorf("existing mode not kept: %v", st.Mode().Perm())
	}
	if b, _ := os.ReadFile(path); string(b) != "2" {
		t.Errorf("content %q", b)
	}
	// Private makes even an existing file 0600.
	if err := WriteFile(path, []byte("3"), WriteOptions{NewMode: 0o600, Private: true}); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("private write left mode %v", st.Mode().Perm())
	}
	// A directory that cannot take the temp file: error, original intact.
	if err := WriteFile(filepath.Join(dir, "missing", "x.json"), []byte("4"), WriteOptions{NewMode: 0o600}); err == nil {
		t.Error("want an error writing into a missing directory")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temp files left: %v", entries)
	}
}

// Writers of one file at once (separate processes, each with its own
// temporary file) all succeed, and the file is always one of them whole,
// whether they fsync or not (Disposable).
func TestWriteFileConcurrentWriters(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "cache.json")
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := range 50 {
				body := strings.Repeat(fmt.Sprintf("%d-%d;", w, i), 200)
				if err := WriteFile(path, []byte(body), WriteOptions{NewMode: 0o600, Disposable: w%2 == 1}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(b), ";")
	if string(b) != strings.Repeat(first+";", 200) {
		t.Errorf("the file mixes writes: %.80q…", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temp files left: %v", entries)
	}
}

// RemoveStaleTemps removes an interrupted write's temporary file of the
// same file once it is old; a fresh one (a writer that may still be at
// work) and files that are not WriteFile's are left alone.
func TestRemoveStaleTemps(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	put := func(name string, age time.Duration) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		at := time.Now().Add(-age)
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
		return p
	}
	stale := put(".settings.json.tmp-123456", time.Hour)
	keep := []string{
		put(".settings.json.tmp-987654", 0),
		put(".settings.json.tmp-notours", time.Hour),
		put(".other.json.tmp-123456", time.Hour),
	}
	RemoveStaleTemps(path, time.Now())
	if _, err := os.Lstat(stale); !os.IsNotExist(err) {
		t.Errorf("stale temp file still there: %v", err)
	}
	for _, p := range keep {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s was removed: %v", filepath.Base(p), err)
		}
	}
}
