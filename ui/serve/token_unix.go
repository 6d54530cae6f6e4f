//go:build !windows

package serve

import (
	"fmt"
	"io/fs"
)

// checkPrivate refuses a token file that others may read or write.
func checkPrivate(fi fs.FileInfo) error {
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Errorf("others may read or write it (mode %04o): run chmod 600 on it, or remove it for a new token", perm)
	}
	return nil
}
