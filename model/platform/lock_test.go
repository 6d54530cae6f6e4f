package platform

import (
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
)

// Holders of the lock on one file never overlap, and the sidecar is gone
// once everyone is done. Each Lock opens the sidecar anew, so the holders
// exclude each other as separate processes would.
func TestLockExcludes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "settings.json")
	var inside, overlaps atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				unlock, err := Lock(path)
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
		})
	}
	wg.Wait()
	if n := overlaps.Load(); n != 0 {
		t.Errorf("%d overlapping lock holders", n)
	}
	if _, err := os.Stat(path + ".lock"); !os.IsNotExist(err) {
		t.Errorf("lock sidecar left behind: %v", err)
	}
}

// While Lock is held, the operating system refuses the same lock to
// anyone else (tryLock: another open file, as another process has), so the
// lock holds between processes; once released it can be taken again.
func TestLockIsTheOperatingSystems(t *testing.T) {
	path := filepath.Join(t.TempDir(), "credentials.json")
	unlock, err := Lock(path)
	if err != nil {
		t.Fatal(err)
	}
	other, err := os.OpenFile(path+".lock", os.O_RDWR, 0)
	if err != nil {
		unlock()
		t.Fatal(err)
	}
	defer other.Close()
	if err := tryLock(other); err == nil {
		t.Error("a second open file took the lock while it was held")
	}
	unlock()
	if err := tryLock(other); err != nil {
		t.Errorf("the lock was not released: %v", err)
	}
}
