package imports

import (
	"path/filepath"
	"strings"
)

// markShared sets Entry.Shared on entries read from path.
func markShared(entries []Entry, path string, env Env) []Entry {
	shared := isShared(path, env)
	for i := range entries {
		entries[i].Shared = shared
	}
	return entries
}

// isShared reports whether path is a file a repository can ship: a
// .mcp.json anywhere, a file in a .vscode/ or .cursor/ folder other than the
// user's own ~/.cursor, or any file under the project directory — except the
// clients' user-level files, which only the person writes.
func isShared(path string, env Env) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return true // cannot tell: fail closed
	}
	for _, u := range userFiles(env) {
		if abs == u {
			return false
		}
	}
	dir := filepath.Dir(abs)
	switch {
	case filepath.Base(abs) == ".mcp.json", filepath.Base(dir) == ".vscode", filepath.Base(dir) == ".cursor":
		return true
	}
	return env.Cwd != "" && within(abs, env.Cwd)
}

// userFiles are the user-level files of every client (see locations).
func userFiles(env Env) []string {
	var out []string
	for _, c := range Clients() {
		for _, src := range locations(c, env) {
			if p, err := filepath.Abs(src.path); src.user && err == nil {
				out = append(out, p)
			}
		}
	}
	return out
}

// within reports whether path is dir or below it.
func within(path, dir string) bool {
	if dir == "" {
		return false
	}
	rel, err := filepath.Rel(filepath.Clean(dir), path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
