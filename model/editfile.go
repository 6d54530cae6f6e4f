package model

import (
	"bytes"
	"io/fs"
	"os"
)

// editFile is the one read-modify-write path for configuration files: lock,
// read, refuse a broken file (it is left exactly as it is), let edit compute
// the new bytes, and replace the file atomically when they differ. A missing
// file starts as {} and is created with newMode.
func editFile(path string, newMode fs.FileMode, edit func(f *jsonFile) ([]byte, error)) error {
	unlock, err := lockFile(path)
	if err != nil {
		return err
	}
	defer unlock()
	raw, rerr := os.ReadFile(path)
	hadBOM := rerr == nil && bytes.HasPrefix(raw, utf8BOM)
	f, prob := readJSONFile(path)
	if prob != nil {
		return errFileUnusable("%s", prob.Error())
	}
	isNew := f == nil
	if isNew {
		f = &jsonFile{path: path, doc: []byte("{}\n")}
		f.root, _ = parseTree(f.doc)
	}
	out, err := edit(f)
	if err != nil {
		return err
	}
	if !isNew && bytes.Equal(out, f.doc) {
		return nil
	}
	if hadBOM {
		out = append(append([]byte(nil), utf8BOM...), out...)
	}
	return writeFileAtomic(path, out, newMode)
}

// newFileMode is the mode of a configuration file mcpdeck creates: the
// project file is shared (0644); user and local settings are private (0600)
// because env values and headers may hold secrets.
func newFileMode(s Scope) fs.FileMode {
	if s == ScopeProject {
		return 0o644
	}
	return 0o600
}
