package cache

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

func TestServerNamesCache(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	n := ServerNames{Hash: "abc123", At: now, Tools: []string{"add", "echo"}, Prompts: []string{"p"}}
	if err := WriteServerNames(dir, n); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Join(dir, nameCacheDir, "names-abc123.json"))
	if err != nil || runtime.GOOS != "windows" && st.Mode().Perm() != 0o600 {
		t.Fatalf("cache file: %v %v", st, err)
	}
	if got, ok := ReadServerNames(dir, "abc123", now.Add(time.Minute)); !ok || len(got.Tools) != 2 || got.Prompts[0] != "p" {
		t.Errorf("read back: %+v %v", got, ok)
	}
	for name, tc := range map[string]struct {
		hash string
		at   time.Time
	}{
		"expired":          {"abc123", now.Add(nameCacheTTL + time.Second)},
		"other definition": {"def456", now},
		"no hash":          {"", now},
		"from the future":  {"abc123", now.Add(-time.Hour)},
	} {
		if _, ok := ReadServerNames(dir, tc.hash, tc.at); ok {
			t.Errorf("%s: cached names offered", name)
		}
	}
	if WriteServerNames(dir, ServerNames{}) == nil {
		t.Error("names without a hash were written")
	}
}
