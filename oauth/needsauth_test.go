package oauth

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// Two mcpdeck processes marking servers needs-auth at once (two caches on
// one file) both succeed, keep each other's entries and leave a valid file:
// each write has a temporary file of its own and the read-modify-write is
// locked.
func TestNeedsAuthConcurrentWriters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cache", "needs-auth.json")
	const n = 50
	var wg sync.WaitGroup
	for w := range 2 {
		c := &needsAuthCache{path: path, ttl: time.Hour, now: time.Now}
		wg.Go(func() {
			for i := range n {
				if err := c.set(fmt.Sprintf("w%d-%d", w, i)); err != nil {
					t.Errorf("writer %d: %v", w, err)
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
	var m map[string]time.Time
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("needs-auth.json is not valid: %v", err)
	}
	if len(m) != 2*n {
		t.Errorf("%d entries kept, want %d: the writers lost each other's", len(m), 2*n)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("files left beside it: %v", entries)
	}
}
