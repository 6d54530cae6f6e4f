//go:build !unix && !windows

package model

import (
	"fmt"
	"os"
	"path/filepath"
)

// lockFile only creates the file's directory where flock is not available:
// two mcpdeck processes editing the same file at once may lose one edit, but
// the atomic rename still keeps the file whole, and stale temporary files
// are removed only once they are old (see removeStaleTemps).
func lockFile(path string) (unlock func(), err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("cannot create %s: %w", filepath.Dir(path), err)
	}
	return func() {}, nil
}
