package platform

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// WriteOptions say how WriteFile may write one file.
type WriteOptions struct {
	// NewMode is the permission of a file the write creates. An existing
	// file keeps its own, unless Private.
	NewMode fs.FileMode
	// Private makes the file 0600 even when it exists with another mode:
	// for credentials, whose mode is part of keeping them.
	Private bool
	// Within, when set, is the directory a path lying in it must still lie
	// in once its symlinks are resolved (see WriteTarget).
	Within string
	// Disposable files (caches) skip both fsyncs. A crash may then lose
	// the write or leave an empty file, which a cache's reader takes for no
	// file; the rename still keeps readers from half a file. On a busy
	// disk an fsync can take seconds: long enough for a client's shutdown
	// schedule to kill `mcpdeck serve` before what it learned is kept.
	Disposable bool
}

// staleTempAge is how old a leftover temporary file must be before
// RemoveStaleTemps deletes it. Under Lock no other mcpdeck is writing, so
// any temporary file is an interrupted write's; the age also spares one
// being written by a process that did not take the lock. Writes take
// milliseconds.
const staleTempAge = time.Minute

// tempPrefix is the name prefix of WriteFile's temporary files for path;
// os.CreateTemp appends decimal digits, so every writer has its own.
func tempPrefix(path string) string { return "." + filepath.Base(path) + ".tmp-" }

// WriteFile replaces the file at path with data so that a reader sees
// either the old or the new file, never a mix, even after a crash (a
// Disposable file may then also be empty) or when another process writes
// the same file at once: a temporary file with a name of its own in the
// target's directory, fsync, rename (renameOver: on Windows, tried again
// while another process holds the file), fsync of the directory; a
// Disposable write skips both fsyncs. It writes where path's symlinks
// lead (WriteTarget), so a link stays a link and a link out of o.Within
// is refused. The directory must exist.
func WriteFile(path string, data []byte, o WriteOptions) error {
	target, err := WriteTarget(path, o.Within)
	if err != nil {
		return err
	}
	mode := o.NewMode
	if o.Private {
		mode = 0o600
	} else if st, err := os.Stat(target); err == nil {
		mode = st.Mode().Perm()
	}
	if err := replaceFile(target, data, mode, !o.Disposable); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	return nil
}

// replaceFile is WriteFile's write of the real file target.
func replaceFile(target string, data []byte, mode fs.FileMode, durable bool) error {
	dir := filepath.Dir(target)
	tmp, err := os.CreateTemp(dir, tempPrefix(target)+"*")
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		return err
	}
	if durable {
		if err := tmp.Sync(); err != nil {
			return err
		}
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := renameOver(tmp.Name(), target); err != nil {
		return err
	}
	done = true
	if !durable {
		return nil
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync() // best effort: some filesystems refuse fsync on directories
		d.Close()
	}
	return nil
}

// RemoveStaleTemps deletes the temporary files an interrupted WriteFile of
// path (the real file, see WriteTarget) left behind: regular files named
// exactly like WriteFile's (prefix, then digits only) and older than
// staleTempAge at now. Call it holding path's Lock. Failures are ignored:
// a leftover file harms nothing.
func RemoveStaleTemps(path string, now time.Time) {
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
