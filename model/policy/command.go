package policy

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/platform"
)

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
func denyProgram(pat string, p model.Program) bool {
	cands := []string{p.Command, p.Path, p.Real}
	cands = append(cands, baseNames(p.Command)...)
	if p.Real != "" {
		cands = append(cands, baseNames(p.Real)...)
	}
	lp := strings.ToLower(pat)
	for _, c := range cands {
		if c != "" && globMatch(lp, strings.ToLower(c)) {
			return true
		}
	}
	if strings.Contains(pat, "*") {
		return false
	}
	target := pat
	if !platform.IsPath(pat) {
		target = p.FindOnMcpdeckPATH(pat)
	}
	return sameFile(target, p.Path)
}

// allowProgram reports whether an allow rule's first element matches. It
// is stricter than a deny: a pattern with a path must match the cleaned
// absolute path the command runs ("/usr/bin/../../tmp/x" is /tmp/x), and a
// bare name must be the program mcpdeck's own PATH finds under that name,
// however the command spells it ("npx" or "/usr/bin/npx"), never a file of
// the same name elsewhere ("./npx" in a repository).
func allowProgram(pat string, p model.Program) bool {
	if platform.IsPath(pat) {
		return globMatch(pat, p.Path)
	}
	for _, n := range baseNames(p.Command) {
		if !globMatch(pat, n) {
			continue
		}
		if !p.FromEnvPATH() && n == p.Command {
			return true // a bare name found in mcpdeck's own PATH
		}
		if sameFile(p.FindOnMcpdeckPATH(n), p.Path) {
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
