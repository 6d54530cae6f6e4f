package jsonfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

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
	// Backup keeps the file as it was before mcpdeck first rewrites it,
	// as FILE.backup next to it (made once, never overwritten): the
	// person's own files, which they may have shaped by hand.
	Backup bool
}

// BackupSuffix names the copy Edit keeps of a file before its first
// rewrite (WriteRules.Backup).
const BackupSuffix = ".backup"

// keepBackup copies target, as it is on disk, to target+BackupSuffix with
// its mode, unless that copy exists: the first state is the one to keep.
func keepBackup(target string) error {
	backup := target + BackupSuffix
	if _, err := os.Lstat(backup); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return nil // kept already (or not ours to replace)
	}
	st, err := os.Stat(target)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(target)
	if err != nil {
		return err
	}
	if err := platform.WriteFile(backup, data, platform.WriteOptions{NewMode: st.Mode().Perm()}); err != nil {
		return fmt.Errorf("keeping a backup of %s: %w", target, err)
	}
	return nil
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
