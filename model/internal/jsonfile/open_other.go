//go:build !unix && !windows

package jsonfile

import "os"

// openNonBlocking is os.Open where opening cannot wait for a pipe's writer
// (there is no O_NONBLOCK); openRegular's checks still refuse non-files.
func openNonBlocking(path string) (*os.File, error) { return os.Open(path) }
