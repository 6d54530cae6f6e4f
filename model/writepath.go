package model

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// maxLinkHops bounds symlink chains, as the kernel's ELOOP limit does.
const maxLinkHops = 40

// writeRules say how editFile may write one configuration file.
type writeRules struct {
	// newMode is the permission of a file mcpdeck creates; an existing
	// file keeps its own.
	newMode fs.FileMode
	// within is the directory a file lying in it must still lie in once
	// its symlinks are resolved (the project root for project files), so a
	// repository's link cannot make mcpdeck write the person's own files.
	// "" lets links point anywhere: the user config dir is the person's.
	within string
}

// writeRules returns the rules for the file of a writable scope: files in
// the project root are bounded by it; user settings may link anywhere.
func (l locations) writeRules(s Scope) writeRules {
	r := writeRules{newMode: newFileMode(s)}
	if s == ScopeProject { // local scope is private state in the config dir
		r.within = l.root
	}
	return r
}

// writeTarget returns the file a write of path really changes: path with
// every symlink resolved, its own and its directories', even a final link
// to a file that does not exist yet. Writing there, rather than replacing
// path, keeps a link (a dotfiles repository) a link. A path lying inside
// rules.within whose target lies outside is refused: ErrFileUnusable, as no
// write to that file can succeed.
func writeTarget(path string, rules writeRules) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("cannot write %s: %w", path, err)
	}
	target, err := resolveLinks(abs, 0)
	if err != nil {
		return "", fmt.Errorf("cannot write %s: %w", path, err)
	}
	if rules.within == "" {
		return target, nil
	}
	root, err := filepath.Abs(rules.within)
	if err != nil {
		return "", fmt.Errorf("cannot write %s: %w", path, err)
	}
	if !isUnder(root, abs) {
		return target, nil // not a project file (e.g. settings kept in the user config dir)
	}
	realRoot, err := resolveLinks(root, 0)
	if err != nil {
		return "", fmt.Errorf("cannot write %s: %w", path, err)
	}
	if !isUnder(realRoot, target) {
		what := "it is a symlink to"
		if st, err := os.Lstat(abs); err != nil || st.Mode()&fs.ModeSymlink == 0 {
			what = "a directory on its way is a symlink, so it is really"
		}
		return "", errFileUnusable("refusing to write %s: %s %s, outside the project %s", path, what, target, root)
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
