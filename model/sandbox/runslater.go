package sandbox

import (
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
)

// RunsLater lists, relative to a directory a sandbox may write, what a
// program outside the sandbox runs or obeys later: git's hooks and
// configuration (core.fsmonitor, core.hooksPath, filters run at the next
// `git status`), hook managers, agents' and editors' project settings
// (tasks, MCP servers, hooks), direnv, package managers' configuration
// (script shells, registries) and shell start-up files. Inside every
// write path, and every repository found in one, these stay read-only,
// and those that do not exist cannot be created. Dir marks a directory.
// The repository's core.hooksPath joins them (hooksPaths), and in a
// writable home directory git's ~/.config/git; .git itself is handled
// apart (gitPaths).
func RunsLater() []RunsLaterPath {
	return []RunsLaterPath{
		{".gitmodules", false},
		{".gitconfig", false},
		{".husky", true},
		{".mcp.json", false},
		{".mcp.lock.json", false},
		{".mcpdeck", true},
		{".claude", true},
		{".vscode", true},
		{".idea", true},
		{".envrc", false},
		{".npmrc", false},
		{".yarnrc", false},
		{".yarnrc.yml", false},
		{"pip.conf", false},
		{".bashrc", false},
		{".bash_profile", false},
		{".profile", false},
		{".zshrc", false},
		{".zshenv", false},
		{".zprofile", false},
	}
}

// RunsLaterPath is one entry of RunsLater.
type RunsLaterPath struct {
	Rel string
	Dir bool
}

// Bounds of the search for repositories nested in a write path: how deep
// below it, and how many directories at most.
const (
	nestedDepth = 3
	nestedMax   = 2000
)

// protect keeps what runs later read-only inside every write path (the
// private /tmp aside, which goes with the server), for the repositories
// found in it too; a write path that is itself such a path becomes
// read-only. It returns what it turned read-only, for the read list.
func (r *resolver) protect() []string {
	p := &r.p
	var kept, demoted []string
	for _, w := range p.Write {
		switch {
		case w == p.TempDir:
			kept = append(kept, w)
		case r.runsLater(w):
			r.drop(w, "", ReasonRunsLater)
			demoted = append(demoted, w)
		default:
			kept = append(kept, w)
		}
	}
	p.Write = kept
	var roots []string
	for _, w := range p.Write {
		if w == p.TempDir || !r.isDir(w) {
			continue
		}
		roots = append(roots, w)
		if filepath.Base(w) == ".git" {
			continue
		}
		for _, repo := range r.nestedRepos(w) {
			roots = append(roots, repo)
			for d := repo; d != w && within(d, w); d = filepath.Dir(d) {
				p.Pinned = appendNew(p.Pinned, d)
			}
		}
	}
	for _, root := range roots {
		if lost := r.protectRoot(root); lost != "" {
			demoted = append(demoted, root)
			r.drop(root, lost, ReasonLinkedName)
		}
	}
	if len(demoted) > 0 {
		p.Write = slices.DeleteFunc(p.Write, func(w string) bool { return under(w, demoted) })
		p.ReadOnly = slices.DeleteFunc(p.ReadOnly, func(x string) bool { return under(x, demoted) })
		p.Placeholders = slices.DeleteFunc(p.Placeholders, func(x Placeholder) bool { return under(x.Path, demoted) })
		p.Pinned = slices.DeleteFunc(p.Pinned, func(x string) bool { return under(x, demoted) })
	}
	slices.Sort(p.ReadOnly)
	slices.Sort(p.Pinned)
	slices.SortFunc(p.Placeholders, func(a, b Placeholder) int { return strings.Compare(a.Path, b.Path) })
	return demoted
}

// protectRoot keeps what runs later in root read-only: what exists is
// listed in ReadOnly, what does not in Placeholders (the first missing
// directory of a deeper path). A name that is a symbolic link cannot be
// held in place (a link is no mount point, and what it reaches changes
// with it): then the whole root stays read-only, and the link is
// returned.
func (r *resolver) protectRoot(root string) (link string) {
	p := &r.p
	var paths []RunsLaterPath
	if filepath.Base(root) == ".git" {
		paths = gitDirPaths()
	} else {
		paths = append(r.gitPaths(root), RunsLater()...)
	}
	for _, h := range r.hooksPaths(root) {
		paths = append(paths, RunsLaterPath{Rel: h, Dir: true})
	}
	if slices.Contains(r.homes, root) { // git's own configuration, in a writable home
		paths = append(paths, RunsLaterPath{Rel: ".config/git", Dir: true})
	}
	for _, rp := range paths {
		path := filepath.Join(root, rp.Rel)
		if !within(path, root) || path == root {
			continue
		}
		switch at, state := r.inspect(root, path); state {
		case pathLink:
			return at // it, or a directory on the way, is a link
		case pathMissing:
			p.Placeholders = appendPlaceholder(p.Placeholders, Placeholder{Path: at, Dir: rp.Dir || at != path})
		default:
			p.ReadOnly = appendNew(p.ReadOnly, path)
		}
	}
	return ""
}

// What inspect finds of a path inside a write path.
const (
	pathThere = iota
	pathMissing
	pathLink
)

// inspect walks path down from root (a real directory), one element at a
// time without following links: the first element that is missing
// (pathMissing) or a link (pathLink), else the path (pathThere). It costs
// one lstat per element below root, where resolving every link of the
// whole path would cost one per element from /.
func (r *resolver) inspect(root, path string) (string, int) {
	rel, err := filepath.Rel(root, path)
	if err != nil {
		return path, pathMissing
	}
	d := root
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		d = filepath.Join(d, part)
		switch {
		case r.f.Lstat != nil:
			st, err := r.f.Lstat(d)
			switch {
			case err != nil:
				return d, pathMissing
			case st.Mode()&fs.ModeSymlink != 0:
				return d, pathLink
			}
		case !r.exists(d):
			return d, pathMissing
		case r.real(d) != d:
			return d, pathLink
		}
	}
	return path, pathThere
}

func appendPlaceholder(list []Placeholder, ph Placeholder) []Placeholder {
	if slices.ContainsFunc(list, func(x Placeholder) bool { return x.Path == ph.Path }) {
		return list
	}
	return append(list, ph)
}

// gitPaths are the parts of root's .git that run later: a .git file (a
// worktree's or submodule's pointer to its repository) as a whole, else
// the hooks, the configuration and the submodules' repositories (each
// with hooks and configuration of its own). .git itself is pinned, so it
// cannot be moved away and replaced; with no .git, one cannot be made.
func (r *resolver) gitPaths(root string) []RunsLaterPath {
	git := filepath.Join(root, ".git")
	switch {
	case !r.exists(git):
		return []RunsLaterPath{{".git", true}}
	case r.isFile(git) || r.real(git) != git:
		return []RunsLaterPath{{".git", false}}
	}
	r.p.Pinned = appendNew(r.p.Pinned, git)
	var out []RunsLaterPath
	for _, g := range gitDirPaths() {
		if g.Rel == "modules" && !r.exists(filepath.Join(git, "modules")) {
			continue // not created by git unless there are submodules
		}
		out = append(out, RunsLaterPath{Rel: filepath.Join(".git", g.Rel), Dir: g.Dir})
	}
	return out
}

// gitDirPaths are what runs later inside a repository's git directory.
func gitDirPaths() []RunsLaterPath {
	return []RunsLaterPath{{"hooks", true}, {"config", false}, {"config.worktree", false}, {"modules", true}}
}

// runsLater reports whether a write path is itself something that runs
// later (listed on its own: "write": [".vscode"] or a link reaching
// ~/.bashrc): its name, or a directory it is in, is one of RunsLater's,
// or it is in a git directory's hooks or is its configuration.
func (r *resolver) runsLater(w string) bool {
	parts := strings.Split(filepath.ToSlash(w), "/")
	for i, part := range parts {
		for _, rl := range RunsLater() {
			name := filepath.Base(rl.Rel)
			if part != name || (!rl.Dir && i != len(parts)-1) {
				continue
			}
			if strings.Contains(rl.Rel, "/") && (i == 0 || parts[i-1] != filepath.Dir(rl.Rel)) {
				continue
			}
			return true
		}
		if part == ".git" && i+1 < len(parts) {
			for _, g := range gitDirPaths() {
				if parts[i+1] == g.Rel {
					return true
				}
			}
		}
	}
	return false
}

// nestedRepos are the repositories inside dir, at most nestedDepth
// directories below it and among the first nestedMax directories looked
// at (NestedLimit says when the search stopped there): what holds a
// .git. node_modules and links are not searched.
func (r *resolver) nestedRepos(dir string) []string {
	if r.f.ReadDir == nil {
		return nil
	}
	var out []string
	level, seen := []string{dir}, 0
	for depth := 0; depth < nestedDepth && len(level) > 0; depth++ {
		var next []string
		for _, d := range level {
			entries, err := r.f.ReadDir(d)
			if err != nil {
				continue
			}
			for _, e := range entries {
				if !e.IsDir() || e.Type()&fs.ModeSymlink != 0 || e.Name() == ".git" || e.Name() == "node_modules" {
					continue
				}
				if seen++; seen > nestedMax {
					r.p.NestedLimit = true
					return out
				}
				sub := filepath.Join(d, e.Name())
				if r.exists(filepath.Join(sub, ".git")) {
					out = append(out, sub)
				}
				next = append(next, sub)
			}
		}
		level = next
	}
	return out
}
