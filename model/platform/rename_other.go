//go:build !windows

package platform

import "os"

// renameOver moves the temporary file tmp onto target: one rename, which
// replaces the file atomically even while others have it open.
func renameOver(tmp, target string) error { return os.Rename(tmp, target) }
