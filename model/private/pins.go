package private

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpdeck/mcpdeck/model/pins"
	"github.com/mcpdeck/mcpdeck/model/platform"
)

// PinsDir (in the config dir) holds the person's pins: one file per
// server definition, named by its ConfigHash, so a user server keeps its
// pins in every project and a changed definition starts afresh, as an
// approval does.
const PinsDir = "pins"

// maxPinFiles bounds the pins directory: past it, the files written
// longest ago go (their definitions pin again at their next listing).
const maxPinFiles = 500

// maxPinFile bounds one pins file as read.
const maxPinFile = 3 * pins.MaxRecordText

// pinsFile is a pins file's shape.
type pinsFile struct {
	Version int    `json:"version"`
	Server  string `json:"server"` // the name it had when pinned, for people reading the file
	pins.Record
}

// PinsPath is the pins file of the definition with hash in the config dir
// configDir; "" when either is unusable (a relative config dir, a hash
// that is not hex).
func PinsPath(configDir, hash string) string {
	if !filepath.IsAbs(configDir) || hash == "" || strings.Trim(hash, "0123456789abcdef") != "" {
		return ""
	}
	return filepath.Join(configDir, PinsDir, hash+".json")
}

// ReadPins reads a pins file: nil, nil when there is none. Only a regular
// file is read, and at most maxPinFile bytes of it.
func ReadPins(path string) (*pins.Record, error) {
	if path == "" {
		return nil, nil
	}
	st, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read your pins %s: %w", path, err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("your pins %s are not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read your pins %s: %w", path, err)
	}
	defer f.Close()
	doc, err := io.ReadAll(io.LimitReader(f, maxPinFile+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read your pins %s: %w", path, err)
	}
	if len(doc) > maxPinFile {
		return nil, fmt.Errorf("your pins %s are larger than %d MB", path, maxPinFile>>20)
	}
	var pf pinsFile
	if err := json.Unmarshal(doc, &pf); err != nil {
		return nil, fmt.Errorf("your pins %s are not valid: %w", path, err)
	}
	return &pf.Record, nil
}

// WritePins replaces the pins file at path with rec, atomically and private
// to the person, and keeps the directory within maxPinFiles.
func WritePins(path, server string, rec pins.Record) error {
	if path == "" {
		return errors.New("no absolute user config directory is known, so mcpdeck has nowhere private to keep pins")
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("cannot create %s: %w", dir, err)
	}
	b, err := json.Marshal(pinsFile{Version: 1, Server: server, Record: rec})
	if err != nil {
		return err
	}
	if err := platform.WriteFile(path, append(b, '\n'), platform.WriteOptions{NewMode: 0o600, Private: true}); err != nil {
		return fmt.Errorf("cannot save your pins: %w", err)
	}
	prunePins(dir)
	return nil
}

// prunePins removes the oldest pins files past maxPinFiles.
func prunePins(dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil || len(ents) <= maxPinFiles {
		return
	}
	type aged struct {
		name string
		mod  int64
	}
	var files []aged
	for _, e := range ents {
		if info, err := e.Info(); err == nil && info.Mode().IsRegular() && strings.HasSuffix(e.Name(), ".json") {
			files = append(files, aged{e.Name(), info.ModTime().UnixNano()})
		}
	}
	slices.SortFunc(files, func(a, b aged) int { return cmp.Compare(a.mod, b.mod) })
	for _, f := range files[:max(0, len(files)-maxPinFiles)] {
		_ = os.Remove(filepath.Join(dir, f.name))
	}
}
