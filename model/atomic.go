package model

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// staleTempAge is how old a leftover temporary file must be before a later
// write removes it. Under the lock no other mcpdeck is writing, so any
// temporary file is an interrupted write's; the age also spares one being
// written where there is no lock (see filelock_other.go) or by a process
// that did not take it. Our writes take milliseconds.
const staleTempAge = time.Minute

// tempPrefix is the name prefix of writeFileAtomic's temporary files for path;
// os.CreateTemp appends decimal digits.
func tempPrefix(path string) string { return "." + filepath.Base(path) + ".tmp-" }

// writeFileAtomic replaces path with data so that a reader sees either the old
// or the new file, never a mix, even after a crash: temp file in the same
// directory, fsync, rename, fsync of the directory. The mode of an existing
// file is kept (newMode applies to a new file). path must be the real file
// (see writeTarget): a symlink there would be replaced by a regular file.
func writeFileAtomic(path string, data []byte, newMode fs.FileMode) error {
	dir := filepath.Dir(path)
	mode := newMode
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	tmp, err := os.CreateTemp(dir, tempPrefix(path)+"*")
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	if err := tmp.Chmod(mode); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	done = true
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync() // best effort: some filesystems refuse fsync on directories
		d.Close()
	}
	return nil
}

// removeStaleTemps deletes the temporary files an interrupted
// writeFileAtomic of path left behind: regular files named exactly like ours
// (prefix, then digits only) and older than staleTempAge. Call it holding
// path's lock. Failures are ignored: a leftover file harms nothing.
func removeStaleTemps(path string, now time.Time) {
	dir := filepath.Dir(path)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	prefix := tempPrefix(path)
	for _, e := range entries {
		digits, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || !allDigits(digits) || !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err != nil || now.Sub(info.ModTime()) < staleTempAge {
			continue
		}
		_ = os.Remove(filepath.Join(dir, e.Name()))
	}
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
