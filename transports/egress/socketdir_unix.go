//go:build unix

package egress

import (
	"fmt"
	"os"
)

// socketDirShared refuses a directory that group or others may write.
// The socket itself is made 0600 at once; even so, whoever reaches it
// gets no more than the rule allows.
func socketDirShared(dir string, fi os.FileInfo) error {
	if fi.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("%w: %s has mode %v; use a directory only you can write, such as one from os.MkdirTemp", ErrSocketDir, dir, fi.Mode().Perm())
	}
	return nil
}
