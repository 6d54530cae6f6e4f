package cache

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/platform"
)

// listsDir, under the cache directory, holds each server definition's last
// lists (tools, prompts, resources, templates) as `mcpdeck serve` last saw
// them, so its next start can answer an agent's first list at once. What
// the lists hold is server-sent text: the files are private (0600 in a
// 0700 directory), bounded in size, number and age, and whoever reads them
// sanitizes them again as it does a live list.
const listsDir = "lists"

// MaxListsFile bounds one remembered-lists file, written or read: lists
// that encode larger are not remembered (that server is waited for at the
// next start, as one never seen).
const MaxListsFile = 16 << 20

// maxListsFiles bounds how many definitions' lists are kept: writing one
// more removes the least recently written.
const maxListsFiles = 256

// ListsTTL is how long remembered lists are offered: a server not seen for
// longer is treated as never seen, and its file is removed on a later
// write.
const ListsTTL = 30 * 24 * time.Hour

// RememberedLists is one definition's remembered lists. Lists is the
// reader's own encoding (the engine's list types): this package bounds and
// stores it, never looks inside.
type RememberedLists struct {
	Hash  string          `json:"hash"` // ConfigHash of the definition they came from
	At    time.Time       `json:"at"`   // when they were last seen live
	Lists json.RawMessage `json:"lists"`
}

// ErrListsTooLarge is lists that encode over MaxListsFile.
var ErrListsTooLarge = errors.New("remembered lists over the size limit")

// listsPath is the file of the definition with hash: by hash, not by server
// name, so a name from a config file never becomes a path. A hash is
// hexadecimal (model.ConfigHash); anything else names no file.
func listsPath(cacheDir, hash string) (string, bool) {
	if hash == "" || strings.Trim(hash, "0123456789abcdef") != "" {
		return "", false
	}
	return filepath.Join(cacheDir, listsDir, "lists-"+hash+".json"), true
}

// ReadLists returns the lists remembered for the definition with hash, if
// there are any younger than ListsTTL at now. Anything wrong with the file
// (missing, not a regular file, over MaxListsFile, malformed, of another
// hash, from the future) is the same as no file: it is a cache.
func ReadLists(cacheDir, hash string, now time.Time) (RememberedLists, bool) {
	path, ok := listsPath(cacheDir, hash)
	if !ok {
		return RememberedLists{}, false
	}
	f, err := os.Open(path)
	if err != nil {
		return RememberedLists{}, false
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() || st.Size() > MaxListsFile {
		return RememberedLists{}, false
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxListsFile+1))
	if err != nil || len(b) > MaxListsFile {
		return RememberedLists{}, false
	}
	var r RememberedLists
	if json.Unmarshal(b, &r) != nil || r.Hash != hash || now.Sub(r.At) > ListsTTL || r.At.After(now.Add(time.Minute)) || len(r.Lists) == 0 {
		return RememberedLists{}, false
	}
	return r, true
}

// WriteLists remembers r (whose Hash names the definition) atomically,
// private to the user, then keeps the directory within maxListsFiles and
// ListsTTL at now, removing the oldest files first.
func WriteLists(cacheDir string, r RememberedLists, now time.Time) error {
	path, ok := listsPath(cacheDir, r.Hash)
	if !ok {
		return fmt.Errorf("%w: remembered lists without a definition hash", model.ErrInvalid)
	}
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	if len(b) > MaxListsFile {
		return fmt.Errorf("%w (%d bytes, at most %d)", ErrListsTooLarge, len(b), MaxListsFile)
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("cannot create %s: %w", dir, err)
	}
	if err := platform.WriteFile(path, b, platform.WriteOptions{NewMode: 0o600, Disposable: true}); err != nil {
		return err
	}
	pruneLists(dir, path, now)
	return nil
}

// pruneLists removes, from dir, remembered-lists files older than ListsTTL
// and, beyond maxListsFiles, the least recently written; keep (just
// written) always stays. Only files named as listsPath names them are
// touched.
func pruneLists(dir, keep string, now time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type file struct {
		path string
		mod  time.Time
	}
	var files []file
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || !strings.HasPrefix(name, "lists-") || !strings.HasSuffix(name, ".json") {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		path := filepath.Join(dir, name)
		if path != keep && now.Sub(info.ModTime()) > ListsTTL {
			_ = os.Remove(path) // a cache: a file left costs only disk space
			continue
		}
		files = append(files, file{path, info.ModTime()})
	}
	if len(files) <= maxListsFiles {
		return
	}
	slices.SortFunc(files, func(a, b file) int { return a.mod.Compare(b.mod) })
	for _, f := range files[:len(files)-maxListsFiles] {
		if f.path != keep {
			_ = os.Remove(f.path)
		}
	}
}
