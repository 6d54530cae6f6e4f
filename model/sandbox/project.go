package sandbox

import (
	"path/filepath"
)

// projectMarkers are what makes a directory a project a sandbox may open:
// a .mcp.json in it, or a repository's metadata in it or above it.
func projectMarkers() []string { return []string{".mcp.json", ".git", ".hg", ".svn", ".jj", ".bzr"} }

// projectOf is the project a sandbox opens: mcpdeck's project root
// (Facts.Project), where it really is, when it is one. The home
// directory, its ancestors and / never are; nor is a directory nothing
// marks as a project (projectMarkers, looked for from it up to, not
// including, the home directory or /), such as ~/Downloads where mcpdeck
// happened to start. With none, why is the second result.
func (r *resolver) projectOf() (project, why string) {
	if r.f.Project == "" {
		return "", ""
	}
	lit := filepath.Clean(r.f.Project)
	t := r.real(lit)
	switch {
	case t == "":
		return "", lit + " does not exist"
	case t == string(filepath.Separator):
		return "", "/ is never the project"
	case r.homeOrAbove(t):
		return "", t + " is your home directory or above it, never the project"
	case r.closed(t):
		return "", t + " is never opened"
	case !r.marked(t):
		return "", t + " has no .mcp.json and is in no repository (below your home directory)"
	}
	return t, ""
}

// homeOrAbove reports whether dir is the home directory or one of its
// ancestors.
func (r *resolver) homeOrAbove(dir string) bool {
	for _, h := range r.homes {
		if within(h, dir) {
			return true
		}
	}
	return false
}

// marked reports whether a project marker is in dir or in one of its
// ancestors below the home directory (or below / outside it).
func (r *resolver) marked(dir string) bool {
	for d := dir; d != filepath.Dir(d) && !r.homeOrAbove(d); d = filepath.Dir(d) {
		for _, m := range projectMarkers() {
			if r.f.Exists != nil && r.f.Exists(filepath.Join(d, m)) {
				return true
			}
		}
	}
	return false
}
