//go:build !unix

package launch

import "os"

// openNonBlocking opens path for reading (there is no O_NONBLOCK here;
// readHead's checks still refuse what is not a regular file).
func openNonBlocking(path string) (*os.File, error) { return os.Open(path) }
