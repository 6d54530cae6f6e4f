//go:build !linux && !windows

package transports

// hasExited cannot peek without reaping here; Close then reports ErrClosed
// for a child that died just before it.
func hasExited(int) bool { return false }

// exiting cannot tell here: stdout's end waits a grace for the exit.
func exiting(int) bool { return false }
