//go:build !unix

package oauth

import "os/exec"

// setProcessGroup is a no-op where process groups are not available; the
// WaitDelay still bounds the wait.
func setProcessGroup(*exec.Cmd) {}
