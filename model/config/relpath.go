package config

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/platform"
)

// relativeArg reports whether a, one argument of a stdio server, is a path
// its program resolves against the directory it runs in. The rule:
//   - ".", "..", and what starts with "./" or "../" (or ".\" and "..\"
//     where \ separates paths) is one, always;
//   - an option "-x=VALUE" or "--name=VALUE" is judged by its VALUE; any
//     other argument starting with "-" is not one;
//   - an absolute path, "~" and what starts with "~", and text holding
//     "://" (a URL) are not;
//   - any other word ("data/file", "src") is one when it names a file or
//     directory that exists in startDir, the directory mcpdeck was started
//     in: where such a server ran before it ran in the home directory. A
//     word that names nothing there (a package "@scope/pkg", an image
//     "mcp/fetch", "stdio") is not.
func relativeArg(a, startDir string) bool {
	if strings.HasPrefix(a, "-") {
		_, v, ok := strings.Cut(a, "=")
		if !ok {
			return false
		}
		a = v
	}
	sep := string(filepath.Separator)
	switch {
	case a == "." || a == "..":
		return true
	case strings.HasPrefix(a, "./"), strings.HasPrefix(a, "../"),
		strings.HasPrefix(a, "."+sep), strings.HasPrefix(a, ".."+sep):
		return true
	case a == "" || filepath.IsAbs(a) || strings.HasPrefix(a, "~") || strings.Contains(a, "://"):
		return false
	}
	_, err := os.Lstat(filepath.Join(startDir, a))
	return err == nil
}

// homeRelative lists what would change silently for a stdio server that
// starts in the home directory only because its definition sets no cwd
// and the working tree did not define it: its command when that is a
// relative path (it has a separator), and each argument relativeArg
// finds, judged as expanded and listed as written with secrets masked.
// Before, they named something in startDir; now they name something
// under home. Nil for every other server.
func homeRelative(raw, cfg model.ServerConfig, scope model.Scope, startDir string) []string {
	if scope.DefinedByProject() || raw.Cwd != "" || !cfg.EffectiveType().Info().Program {
		return nil
	}
	shown := model.Redact(raw)
	var out []string
	if platform.IsPath(cfg.Command) && !filepath.IsAbs(cfg.Command) {
		out = append(out, shown.Command)
	}
	for i, a := range cfg.Args {
		if i < len(shown.Args) && relativeArg(a, startDir) {
			out = append(out, shown.Args[i])
		}
	}
	return out
}
