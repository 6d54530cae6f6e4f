package registry

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/mcpdeck/mcpdeck/model/lock"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// entryPath checks the name of one zip entry and returns it as a clean
// relative path (slash separated, no trailing slash). A name that is
// absolute, climbs out with "..", carries a drive, a backslash, a
// textsafe.HiddenRune or a name Windows reserves could land outside the bundle's
// directory, or be printed as something else, so it is refused.
func entryPath(name string) (string, error) {
	n := strings.TrimSuffix(name, "/")
	switch {
	case n == "":
		return "", errors.New("holds an entry without a name")
	case len(n) > 1024 || !utf8.ValidString(n):
		return "", fmt.Errorf("holds an entry whose name is too long or not UTF-8: %q", name)
	case strings.HasPrefix(n, "/"):
		return "", fmt.Errorf("holds the entry %q, an absolute path", name)
	case strings.ContainsAny(n, `\:`):
		return "", fmt.Errorf("holds the entry %q, whose name has a backslash or a colon (a Windows path)", name)
	}
	if r, ok := textsafe.FirstHidden(n); ok {
		return "", fmt.Errorf("holds the entry %q, whose name has the invisible or control character %U", name, r)
	}
	for _, part := range strings.Split(n, "/") {
		if part == "" || part == "." || part == ".." {
			return "", fmt.Errorf("holds the entry %q, which would land outside its directory", name)
		}
	}
	if !filepath.IsLocal(filepath.FromSlash(n)) {
		return "", fmt.Errorf("holds the entry %q, a name this system reserves", name)
	}
	if n == markerName {
		return "", fmt.Errorf("holds the entry %q, which mcpdeck keeps for itself", name)
	}
	return n, nil
}

// isDirEntry reports whether a zip entry is a directory.
func isDirEntry(f *zip.File) bool {
	return strings.HasSuffix(f.Name, "/") || f.Mode().IsDir()
}

// checkEntries refuses a zip holding too many entries, an entry whose
// name is unsafe (entryPath), a symbolic link or other entry that is
// neither a file nor a directory, a file twice (also in other letter
// case, which would be one file on some systems), or more bytes than the
// limits allow by what its entries declare (unpack counts the real bytes
// too). It returns the paths of its regular files.
func checkEntries(zr *zip.Reader, l Limits) (map[string]bool, error) {
	if len(zr.File) > l.Files {
		return nil, fmt.Errorf("holds more than %d entries", l.Files)
	}
	files, folded := map[string]bool{}, map[string]bool{}
	var total uint64
	for _, f := range zr.File {
		p, err := entryPath(f.Name)
		if err != nil {
			return nil, err
		}
		mode := f.Mode()
		switch {
		case mode&fs.ModeSymlink != 0:
			return nil, fmt.Errorf("holds %q, a symbolic link (mcpdeck unpacks files and directories only)", p)
		case isDirEntry(f):
			continue
		case !mode.IsRegular():
			return nil, fmt.Errorf("holds %q, which is neither a file nor a directory (%s)", p, mode.Type())
		case f.UncompressedSize64 > uint64(l.File):
			return nil, fmt.Errorf("holds %q, larger than %s", p, size(l.File))
		}
		total += f.UncompressedSize64
		if total > uint64(l.Unpacked) {
			return nil, fmt.Errorf("unpacks to more than %s", size(l.Unpacked))
		}
		if folded[strings.ToLower(p)] {
			return nil, fmt.Errorf("holds %q twice (perhaps in other letter case)", p)
		}
		files[p], folded[strings.ToLower(p)] = true, true
	}
	return files, nil
}

// readManifest reads manifest.json from the top of the zip, bounded.
func readManifest(zr *zip.Reader) ([]byte, error) {
	for _, f := range zr.File {
		if f.Name != "manifest.json" {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("has a manifest.json that cannot be read: %w", err)
		}
		defer func() { _ = rc.Close() }()
		b, err := io.ReadAll(io.LimitReader(rc, maxManifest+1))
		switch {
		case err != nil:
			return nil, fmt.Errorf("has a manifest.json that cannot be read: %w", err)
		case len(b) > maxManifest:
			return nil, fmt.Errorf("has a manifest.json larger than %s", size(maxManifest))
		}
		return b, nil
	}
	return nil, errors.New("has no manifest.json at its top")
}

// unpack writes every entry of zr under dir, through an os.Root so that
// nothing can be written outside it. Files are created new (a name given
// twice, or twice on a system that ignores case, is an error); a file
// keeps its executable bits. The bytes written are counted against l
// whatever the entries declared.
func unpack(zr *zip.Reader, dir string, l Limits) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer func() { _ = root.Close() }()
	var total int64
	for _, f := range zr.File {
		p, err := entryPath(f.Name)
		if err != nil {
			return err
		}
		if isDirEntry(f) {
			if err := root.MkdirAll(p, 0o755); err != nil {
				return err
			}
			continue
		}
		if d := path.Dir(p); d != "." {
			if err := root.MkdirAll(d, 0o755); err != nil {
				return err
			}
		}
		n, err := unpackFile(root, f, p, min(l.File, l.Unpacked-total))
		if err != nil {
			return err
		}
		total += n
	}
	return nil
}

// unpackFile writes one entry, at most limit bytes of it.
func unpackFile(root *os.Root, f *zip.File, p string, limit int64) (int64, error) {
	perm := fs.FileMode(0o644)
	if f.Mode()&0o111 != 0 {
		perm = 0o755
	}
	out, err := root.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if errors.Is(err, fs.ErrExist) {
		return 0, fmt.Errorf("holds %q twice", p)
	}
	if err != nil {
		return 0, err
	}
	rc, err := f.Open()
	if err != nil {
		_ = out.Close()
		return 0, fmt.Errorf("cannot read %q: %w", p, err)
	}
	n, err := io.Copy(out, io.LimitReader(rc, limit+1))
	_ = rc.Close()
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	switch {
	case err != nil:
		return n, fmt.Errorf("unpacking %q: %w", p, err)
	case n > limit:
		return n, fmt.Errorf("holds %q, which unpacks to more than it may (%s)", p, size(limit))
	}
	return n, nil
}

// present reports whether Dir already holds this bundle: a directory whose
// marker names the same SHA-256. A Dir that exists and holds anything
// else is an error: mcpdeck never writes over it.
func (bd *Bundle) present() (bool, error) {
	fi, err := os.Lstat(bd.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	other := fmt.Errorf("%s exists and does not hold this bundle (SHA-256 %s); mcpdeck does not write over it: remove it and try again", bd.Dir, bd.SHA256)
	if !fi.IsDir() {
		return false, other
	}
	marker := filepath.Join(bd.Dir, markerName)
	if mi, err := os.Lstat(marker); err != nil || !mi.Mode().IsRegular() || mi.Size() > 256 {
		return false, other
	}
	b, err := os.ReadFile(marker)
	if err != nil || strings.TrimSpace(string(b)) != bd.SHA256 {
		return false, other
	}
	return true, nil
}

// Unpack writes the bundle into Dir, unless Dir already holds it (the
// same SHA-256), and makes its command executable. It unpacks into a
// fresh directory next to Dir and renames that into place, so Dir is never
// half written; created says whether this call made Dir.
func (bd *Bundle) Unpack() (created bool, err error) {
	if ok, err := bd.present(); err != nil || ok {
		return false, err
	}
	lock.With(&bd.mu, func() { created, err = bd.unpack() })
	return created, err
}

// unpack is Unpack's work, holding the bundle's mutex.
func (bd *Bundle) unpack() (created bool, err error) {
	if bd.file == "" {
		return false, errors.New("the bundle's download was already removed")
	}
	parent := filepath.Dir(bd.Dir)
	if err := os.MkdirAll(parent, 0o700); err != nil {
		return false, err
	}
	tmp, err := os.MkdirTemp(parent, ".unpack-")
	if err != nil {
		return false, err
	}
	defer func() {
		if !created {
			_ = os.RemoveAll(tmp)
		}
	}()
	zr, err := zip.OpenReader(bd.file)
	if err != nil {
		return false, err
	}
	defer func() { _ = zr.Close() }()
	if err := unpack(&zr.Reader, tmp, bd.limits); err != nil {
		return false, fmt.Errorf("unpacking the bundle %s: it %w", bd.URL, err)
	}
	if bd.Exec != "" {
		if err := os.Chmod(filepath.Join(tmp, filepath.FromSlash(bd.Exec)), 0o755); err != nil {
			return false, err
		}
	}
	if err := os.WriteFile(filepath.Join(tmp, markerName), []byte(bd.SHA256+"\n"), 0o644); err != nil {
		return false, err
	}
	if err := os.Rename(tmp, bd.Dir); err != nil {
		if ok, perr := bd.present(); perr == nil && ok { // unpacked by another mcpdeck meanwhile
			return false, nil
		}
		return false, err
	}
	return true, nil
}

// Remove deletes the unpacked directory: for an install that failed after
// Unpack created it.
func (bd *Bundle) Remove() error { return os.RemoveAll(bd.Dir) }

// Unpacked reports whether dir is a bundle directory mcpdeck unpacked:
// right under Root, with its marker.
func (bs Bundles) Unpacked(dir string) bool {
	if dir == "" || filepath.Dir(filepath.Clean(dir)) != filepath.Clean(bs.Root) {
		return false
	}
	fi, err := os.Lstat(filepath.Join(dir, markerName))
	return err == nil && fi.Mode().IsRegular()
}
