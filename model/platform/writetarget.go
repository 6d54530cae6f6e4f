package platform

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// maxLinkHops bounds symlink chains, as the kernel's ELOOP limit does.
const maxLinkHops = 40

// ErrOutside means a write was refused because the file's symlinks lead
// out of the directory it may be written in. Its errors are *OutsideError.
var ErrOutside = errors.New("it leads outside the directory it may be written in")

// OutsideError is WriteTarget's refusal: Path lies in Within, but the file
// a write would change, Target, does not.
type OutsideError struct {
	Path, Target, Within string
	// Link is true when Path itself is the symlink, false when a directory
	// on its way is.
	Link bool
}

// Error names the file, where it really leads and the boundary.
func (e *OutsideError) Error() string {
	return fmt.Sprintf("refusing to write %s: %s %s, outside %s", e.Path, e.How(), e.Target, e.Within)
}

// How says which link leads out, as the start of a sentence ending in the
// target: "it is a symlink to" or "a directory on its way is a symlink,
// so it is really".
func (e *OutsideError) How() string {
	if e.Link {
		return "it is a symlink to"
	}
	return "a directory on its way is a symlink, so it is really"
}

// Is makes errors.Is(err, ErrOutside) true.
func (e *OutsideError) Is(target error) bool { return target == ErrOutside }

// WriteTarget returns the file a write of path really changes: path made
// absolute with every symlink resolved, its own and its directories', even
// a final link to a file that does not exist yet. Writing there, rather
// than replacing path, keeps a link (a dotfiles repository) a link. When
// within is set and path lies in it, the target must too: otherwise the
// answer is an *OutsideError, so a repository's link cannot make mcpdeck
// write the person's own files. within "" lets links point anywhere.
func WriteTarget(path, within string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("cannot write %s: %w", path, err)
	}
	target, err := resolveLinks(abs, 0)
	if err != nil {
		return "", fmt.Errorf("cannot write %s: %w", path, err)
	}
	if within == "" {
		return target, nil
	}
	root, err := filepath.Abs(within)
	if err != nil {
		return "", fmt.Errorf("cannot write %s: %w", path, err)
	}
	if !isUnder(root, abs) {
		return target, nil // the bound is not this file's
	}
	realRoot, err := resolveLinks(root, 0)
	if err != nil {
		return "", fmt.Errorf("cannot write %s: %w", path, err)
	}
	if !isUnder(realRoot, target) {
		st, err := os.Lstat(abs)
		link := err == nil && st.Mode()&fs.ModeSymlink != 0
		return "", &OutsideError{Path: path, Target: target, Within: root, Link: link}
	}
	return target, nil
}

// resolveLinks is filepath.EvalSymlinks for a path that may not exist: its
// missing tail (directories still to be created, or the final name a link
// points to) is kept as written.
func resolveLinks(path string, hops int) (string, error) {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		return real, nil
	}
	dir, name := filepath.Split(path)
	dir = filepath.Clean(dir)
	if dir == path || name == "" {
		return path, nil
	}
	realDir, err := resolveLinks(dir, hops)
	if err != nil {
		return "", err
	}
	joined := filepath.Join(realDir, name)
	st, err := os.Lstat(joined)
	if err != nil || st.Mode()&fs.ModeSymlink == 0 {
		return joined, nil // missing: it will be created here
	}
	if hops >= maxLinkHops {
		return "", fmt.Errorf("too many levels of symbolic links at %s", joined)
	}
	dest, err := os.Readlink(joined)
	if err != nil {
		return "", err
	}
	if !filepath.IsAbs(dest) {
		dest = filepath.Join(realDir, dest)
	}
	return resolveLinks(dest, hops+1) // a dangling link: follow it to where the file will be
}

// isUnder reports whether path is dir or lies below it (both absolute and
// clean).
func isUnder(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && !filepath.IsAbs(rel) && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
