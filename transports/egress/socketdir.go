package egress

import (
	"fmt"
	"os"
)

// checkSocketDir refuses a socket directory that is not a directory or
// whose permissions let another user put a file in the socket's place
// (socketDirShared).
func checkSocketDir(dir string) error {
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("the egress proxy's socket directory: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("the egress proxy's socket directory %s is not a directory", dir)
	}
	return socketDirShared(dir, fi)
}
