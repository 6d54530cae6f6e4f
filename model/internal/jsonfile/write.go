package jsonfile

import (
	"errors"
	"io/fs"

	"github.com/mcpdeck/mcpdeck/model/platform"
)

// WriteRules say how Edit may write one configuration file.
type WriteRules struct {
	// NewMode is the permission of a file mcpdeck creates; an existing
	// file keeps its own.
	NewMode fs.FileMode
	// Within is the directory a file lying in it must still lie in once
	// its symlinks are resolved (the project root for project files), so a
	// repository's link cannot make mcpdeck write the person's own files.
	// "" lets links point anywhere: the user config dir is the person's.
	Within string
}

// writeTarget returns the file a write of path really changes
// (platform.WriteTarget: every symlink resolved, so a link stays a link).
// A path lying inside rules.within whose target lies outside is refused:
// ErrFileUnusable, as no write to that file can succeed.
func writeTarget(path string, rules WriteRules) (string, error) {
	target, err := platform.WriteTarget(path, rules.Within)
	return target, outsideProject(err)
}

// writeFile replaces the real file target (writeTarget's answer) with
// data, atomically; a link planted since writeTarget that leads out of
// rules.within is still refused.
func writeFile(target string, data []byte, rules WriteRules) error {
	return outsideProject(platform.WriteFile(target, data, platform.WriteOptions{NewMode: rules.NewMode, Within: rules.Within}))
}

// outsideProject words platform's refusal of a link out of the project as
// ErrFileUnusable; other errors pass unchanged.
func outsideProject(err error) error {
	var oe *platform.OutsideError
	if errors.As(err, &oe) {
		return Unusable("refusing to write %s: %s %s, outside the project %s", oe.Path, oe.How(), oe.Target, oe.Within)
	}
	return err
}
