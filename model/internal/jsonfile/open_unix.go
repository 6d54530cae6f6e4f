//go:build unix

package jsonfile

import (
	"os"
	"syscall"
)

// openNonBlocking opens path read-only without waiting: opening a named pipe
// normally blocks until a writer appears. For a regular file the flag
// changes nothing.
func openNonBlocking(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
