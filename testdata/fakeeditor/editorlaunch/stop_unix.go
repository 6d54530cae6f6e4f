//go:build unix

package editorlaunch

import (
	"os"
	"syscall"
)

// stop sends SIGTERM, on which the editor removes its lock file.
func stop(p *os.Process) error { return p.Signal(syscall.SIGTERM) }
