//go:build unix

package platform

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// openNoFollow opens path for writing, creating it 0600, without following
// a symbolic link at path (O_NOFOLLOW fails with ELOOP) and without waiting
// for a FIFO's reader (O_NONBLOCK; CreatePrivate refuses non-files).
func openNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|unix.O_NOFOLLOW|unix.O_NONBLOCK, 0o600)
}

// isLinkLoop reports the error O_NOFOLLOW gives for a link.
func isLinkLoop(err error) bool { return errors.Is(err, unix.ELOOP) }
