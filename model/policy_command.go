package model

import (
	"os"
	"path/filepath"
	"strings"
)

// program is a stdio server's first argument with the program it names:
// path is the absolute file it runs ("" when it cannot be found), real
// that path with symbolic links resolved.
type program struct {
	written, path, real string
	// viaPATH is set when the command is a bare name looked up in the
	// person's own PATH (the server's env does not replace PATH).
	viaPATH bool
}

// commandResolver finds programs the way the stdio transport starts them: a
// command with a path separator is relative to the server's cwd, a bare
// name is looked up in the server's env PATH if it sets one, else in the
// person's PATH (read through getenv, so tests need not change the process).
type commandResolver struct {
	getenv func(string) (string, bool)
	cwd    string // where a server without its own cwd starts
}

// resolve describes cfg's command.
func (r commandResolver) resolve(cfg ServerConfig) program {
	c := cfg.Command
	p := program{written: c}
	if hasPathSep(c) {
		abs := c
		if !filepath.IsAbs(abs) {
			dir := cfg.Cwd
			if dir == "" {
				dir = r.cwd
			}
			abs = filepath.Join(dir, abs)
		}
		p.path = filepath.Clean(abs)
	} else {
		list, own := cfg.Env["PATH"]
		if !own {
			list, _ = r.getenv("PATH")
		}
		p.path = searchPath(c, list)
		p.viaPATH = !own
	}
	if p.path != "" {
		if real, err := filepath.EvalSymlinks(p.path); err == nil {
			p.real = real
		}
	}
	return p
}

// personPath is where the person's PATH finds name, or "".
func (r commandResolver) personPath(name string) string {
	list, _ := r.getenv("PATH")
	return searchPath(name, list)
}

// searchPath looks name up in a PATH list as exec.LookPath does, skipping
// relative directories (a repository cannot plant "." in the search).
func searchPath(name, list string) string {
	if name == "" {
		return ""
	}
	for _, dir := range filepath.SplitList(list) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue
		}
		for _, cand := range programCandidates(filepath.Join(dir, name)) {
			if st, err := os.Stat(cand); err == nil && isProgram(st) {
				return filepath.Clean(cand)
			}
		}
	}
	return ""
}

// hasPathSep reports whether a command names a path rather than a program
// to look up ("./x", "/usr/bin/x", and on Windows "dir\x").
func hasPathSep(c string) bool {
	return strings.ContainsRune(c, '/') || strings.ContainsRune(c, os.PathSeparator)
}

// baseNames are the names a command goes by: its base name, and that name
// without a Windows program extension (npx.cmd, npx.exe are npx).
func baseNames(c string) []string {
	b := filepath.Base(strings.ReplaceAll(c, `\`, "/"))
	names := []string{b}
	ext := strings.ToLower(filepath.Ext(b))
	switch ext {
	case ".exe", ".cmd", ".bat", ".com":
		names = append(names, b[:len(b)-len(ext)])
	}
	return names
}

// denyProgram reports whether a deny rule's first element matches: any
// name the program goes by counts, case-insensitively — as written, its
// base name with or without a Windows extension, its resolved path, its
// real path and that file's name — and a pattern without wildcards also
// matches when it names the very same file the command runs.
func (r commandResolver) denyProgram(pat string, p program) bool {
	cands := []string{p.written, p.path, p.real}
	cands = append(cands, baseNames(p.written)...)
	if p.real != "" {
		cands = append(cands, baseNames(p.real)...)
	}
	lp := strings.ToLower(pat)
	for _, c := range cands {
		if c != "" && globMatch(lp, strings.ToLower(c)) {
			return true
		}
	}
	if strings.Contains(pat, "*") || p.path == "" {
		return false
	}
	target := pat
	if !hasPathSep(pat) {
		target = r.personPath(pat)
	}
	return sameFile(target, p.path)
}

// allowProgram reports whether an allow rule's first element matches. It
// is stricter than a deny: a pattern with a path must match the cleaned
// absolute path the command runs ("/usr/bin/../../tmp/x" is /tmp/x), and a
// bare name must be the program the person's own PATH finds under that
// name, however the command spells it ("npx" or "/usr/bin/npx"), never a
// file of the same name elsewhere ("./npx" in a repository).
func (r commandResolver) allowProgram(pat string, p program) bool {
	if hasPathSep(pat) {
		return p.path != "" && globMatch(pat, p.path)
	}
	for _, n := range baseNames(p.written) {
		if !globMatch(pat, n) {
			continue
		}
		if p.viaPATH && n == p.written {
			return true
		}
		if p.path != "" && sameFile(r.personPath(n), p.path) {
			return true
		}
	}
	return false
}

// sameFile reports whether a and b are the same existing file.
func sameFile(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	sa, err := os.Stat(a)
	if err != nil {
		return false
	}
	sb, err := os.Stat(b)
	return err == nil && os.SameFile(sa, sb)
}
