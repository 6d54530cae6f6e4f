//go:build windows

package editorlaunch

import "os"

// stop kills the editor: Windows has no SIGTERM to send it, so its lock
// file stays behind, as a crashed editor's would.
func stop(p *os.Process) error { return p.Kill() }
