package cache

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestRememberedLists: lists are written private (0600 in a 0700
// directory) and read back for their own definition only, while younger
// than ListsTTL; a file that is malformed, too large, of another hash, a
// link or from the future is no file.
func TestRememberedLists(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	r := RememberedLists{Hash: "abc123", At: now, Lists: json.RawMessage(`{"tools":[{"name":"echo"}]}`)}
	if err := WriteLists(dir, r, now); err != nil {
		t.Fatal(err)
	}
	path, _ := listsPath(dir, "abc123")
	if runtime.GOOS != "windows" {
		if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
			t.Fatalf("file: %v %v", st, err)
		}
		if st, err := os.Stat(filepath.Dir(path)); err != nil || st.Mode().Perm() != 0o700 {
			t.Fatalf("directory: %v %v", st, err)
		}
	}
	got, ok := ReadLists(dir, "abc123", now.Add(time.Hour))
	if !ok || string(got.Lists) != string(r.Lists) || !got.At.Equal(now) {
		t.Fatalf("read back: %+v %v", got, ok)
	}
	for name, c := range map[string]struct {
		hash string
		at   time.Time
	}{
		"expired":          {"abc123", now.Add(ListsTTL + time.Second)},
		"other definition": {"def456", now},
		"no hash":          {"", now},
		"not a hash":       {"../../etc/passwd", now},
		"from the future":  {"abc123", now.Add(-time.Hour)},
	} {
		if _, ok := ReadLists(dir, c.hash, c.at); ok {
			t.Errorf("%s: lists offered", name)
		}
	}
	if WriteLists(dir, RememberedLists{Hash: "../x"}, now) == nil || WriteLists(dir, RememberedLists{}, now) == nil {
		t.Error("lists without a proper hash were written")
	}
	huge := RememberedLists{Hash: "abc124", At: now, Lists: json.RawMessage(`"` + strings.Repeat("x", MaxListsFile) + `"`)}
	if err := WriteLists(dir, huge, now); !errors.Is(err, ErrListsTooLarge) {
		t.Errorf("huge lists: %v", err)
	}
	bad := func(name, body string) {
		t.Helper()
		p, _ := listsPath(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, ok := ReadLists(dir, name, now); ok {
			t.Errorf("%s offered", body[:min(len(body), 40)])
		}
	}
	bad("bad1", "{oops")
	bad("bad2", `{"hash":"other","at":"2026-11-23T12:00:00Z","lists":{}}`)
	bad("bad3", `{"hash":"bad3","at":"2026-11-23T12:00:00Z"}`)
	bad("bad4", `{"hash":"bad4","at":"2026-11-23T12:00:00Z","lists":"`+strings.Repeat("x", MaxListsFile)+`"}`)
	if runtime.GOOS != "windows" {
		link, _ := listsPath(dir, "abc125")
		if err := os.Symlink(filepath.Dir(link), link); err != nil {
			t.Fatal(err)
		}
		if _, ok := ReadLists(dir, "abc125", now); ok {
			t.Error("a link to a directory was read")
		}
	}
}

// TestRememberedListsBounded: the directory keeps at most maxListsFiles
// definitions, dropping the least recently written, and drops files older
// than ListsTTL; other files there are left alone.
func TestRememberedListsBounded(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	write := func(hash string, at time.Time) {
		t.Helper()
		if err := WriteLists(dir, RememberedLists{Hash: hash, At: at, Lists: json.RawMessage(`{}`)}, at); err != nil {
			t.Fatal(err)
		}
		p, _ := listsPath(dir, hash)
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
	}
	write("0dd", now.Add(-ListsTTL-time.Hour))
	other := filepath.Join(dir, listsDir, "notes.txt")
	if err := os.WriteFile(other, []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}
	for i := range maxListsFiles + 3 {
		write(fmt.Sprintf("%04x", i), now.Add(time.Duration(i)*time.Second))
	}
	entries, err := os.ReadDir(filepath.Join(dir, listsDir))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != maxListsFiles+1 { // and notes.txt
		t.Fatalf("%d files kept, want %d and notes.txt", len(entries), maxListsFiles)
	}
	for _, gone := range []string{"0dd", "0000", "0001", "0002"} {
		if p, _ := listsPath(dir, gone); fileExists(p) {
			t.Errorf("%s kept", gone)
		}
	}
	for _, kept := range []string{"0003", fmt.Sprintf("%04x", maxListsFiles+2)} {
		if p, _ := listsPath(dir, kept); !fileExists(p) {
			t.Errorf("%s dropped", kept)
		}
	}
	if !fileExists(other) {
		t.Error("a file not ours was removed")
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
