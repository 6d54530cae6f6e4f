package jsonfile

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"
)

// TestReadWhileEdited: processes editing one settings file at once all
// land, and a reader that reads it after each edit (mcpdeck's watcher
// re-reading the file an `mcp add` is writing, while another writes it
// again) gets the file before or after an edit, never an error. On Windows
// a reader opening the file just as a write replaces it is refused
// (ERROR_SHARING_VIOLATION), and a write replacing a file being read is
// refused (ERROR_ACCESS_DENIED): both wait their turn.
func TestReadWhileEdited(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	const writers, edits = 4, 20
	edited := make(chan struct{}, writers*edits)
	var readers, wg sync.WaitGroup
	for range 2 {
		readers.Go(func() {
			for range edited {
				if _, prob := Read(path); prob != nil {
					t.Errorf("read during edits: %v", prob)
				}
			}
		})
	}
	for w := range writers {
		wg.Go(func() {
			for i := range edits {
				err := Edit(path, WriteRules{NewMode: 0o600}, func(f *File) ([]byte, error) {
					return SetMember(f.Doc, []string{ServersKey, fmt.Sprintf("s%d-%d", w, i)}, map[string]string{"command": "x"})
				})
				if err != nil {
					t.Errorf("edit: %v", err)
					return
				}
				edited <- struct{}{}
			}
		})
	}
	wg.Wait()
	close(edited)
	readers.Wait()
	f, prob := Read(path)
	if prob != nil {
		t.Fatal(prob)
	}
	if ms := f.Root.Get(ServersKey); ms == nil || len(ms.Members) != writers*edits {
		t.Errorf("after %d edits the file holds\n%s", writers*edits, f.Doc)
	}
}
