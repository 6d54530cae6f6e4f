package private

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"strings"
)

// ProjectsDir (in the config dir) holds the person's private state of
// each project: see StatePath.
const ProjectsDir = "projects"

// keyProject names, inside a private state file, the canonical project root
// the file belongs to, so a person reading the projects directory can tell
// which file is which.
const keyProject = "project"

// StatePath is the file holding the person's private state of the
// project at root: local-scope servers and every decision (approvals with
// their hashes, enabled and disabled servers, permissions), in the shape
// described in decisions.go. It lives in the config dir, never in the working
// tree, so nothing a repository ships or a collaborator commits can approve,
// enable or permit anything:
//
//	<ConfigDir>/projects/<base name>-<first 16 hex digits of sha256(root)>.json
//
// where root is the canonical path (absolute, symlinks resolved) so that two
// spellings of one directory share one state. "" when the config dir is not
// an absolute path: a relative one would land in the working directory.
func StatePath(projectsDir, root string) string {
	if !filepath.IsAbs(projectsDir) {
		return ""
	}
	canon := canonicalDir(root)
	sum := sha256.Sum256([]byte(canon))
	return filepath.Join(projectsDir, fileSafe(filepath.Base(canon))+"-"+hex.EncodeToString(sum[:8])+".json")
}

// canonicalDir is dir made absolute with its symlinks resolved; when the
// directory cannot be resolved (it does not exist) it is only cleaned.
func canonicalDir(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = filepath.Clean(dir)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}

// fileSafe keeps letters, digits, '.', '_' and '-' of a directory's name
// (at most 40 of them) so it can be part of a file name on every OS.
func fileSafe(name string) string {
	var b strings.Builder
	for _, r := range name {
		if b.Len() >= 40 {
			break
		}
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	s := strings.Trim(b.String(), ".")
	if s == "" {
		return "root"
	}
	return s
}
