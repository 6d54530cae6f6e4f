package model

import (
	"errors"
	"io/fs"

	"github.com/mcpdeck/mcpdeck/model/platform"
)

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

// writeTarget returns the file a write of path really changes
// (platform.WriteTarget: every symlink resolved, so a link stays a link).
// A path lying inside rules.within whose target lies outside is refused:
// ErrFileUnusable, as no write to that file can succeed.
func writeTarget(path string, rules writeRules) (string, error) {
	target, err := platform.WriteTarget(path, rules.within)
	return target, outsideProject(err)
}

// writeFile replaces the real file target (writeTarget's answer) with
// data, atomically; a link planted since writeTarget that leads out of
// rules.within is still refused.
func writeFile(target string, data []byte, rules writeRules) error {
	return outsideProject(platform.WriteFile(target, data, platform.WriteOptions{NewMode: rules.newMode, Within: rules.within}))
}

// outsideProject words platform's refusal of a link out of the project as
// ErrFileUnusable; other errors pass unchanged.
func outsideProject(err error) error {
	var oe *platform.OutsideError
	if errors.As(err, &oe) {
		return errFileUnusable("refusing to write %s: %s %s, outside the project %s", oe.Path, oe.How(), oe.Target, oe.Within)
	}
	return err
}
