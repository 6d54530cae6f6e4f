package private

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/mcpdeck/mcpdeck/model/pins"
	"github.com/mcpdeck/mcpdeck/testdata/winetest"
)

// TestPinsRoundTrip: pins written are read back, private to the person;
// a missing file is no pins; a link or a bad hash is refused.
func TestPinsRoundTrip(t *testing.T) {
	dir := t.TempDir()
	hash := "0123456789abcdef"
	path := PinsPath(dir, hash)
	if rec, err := ReadPins(path); rec != nil || err != nil {
		t.Fatalf("missing: %v %v", rec, err)
	}
	h := pins.NewHasher()
	rec := pins.First([]pins.Item{h.Tool(pins.Tool{Name: "a", Description: "d"})})
	if err := WritePins(path, "srv", rec); err != nil {
		t.Fatal(err)
	}
	back, err := ReadPins(path)
	if err != nil || back == nil || len(back.Items) != 1 || back.Items[0].Hash != rec.Items[0].Hash {
		t.Fatalf("read back %+v %v", back, err)
	}
	if st, _ := os.Stat(path); runtime.GOOS != "windows" && st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", st.Mode())
	}
	for _, bad := range []string{"../x", "ABC", ""} {
		if PinsPath(dir, bad) != "" {
			t.Errorf("hash %q has a path", bad)
		}
	}
	if PinsPath("rel", hash) != "" || filepath.Dir(path) != filepath.Join(dir, PinsDir) {
		t.Error("paths")
	}
	// Last: under Wine, which makes no links, the test skips here.
	link := PinsPath(dir, "ab")
	if err := winetest.Symlink(t, path, link); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadPins(link); err == nil {
		t.Error("read through a link")
	}
}
