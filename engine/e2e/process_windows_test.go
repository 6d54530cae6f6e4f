//go:build windows

package e2e

import (
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a new console process group, so it gets none of
// the test's console events.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

// stopGroup ends cmd: Windows has no SIGTERM, so it terminates the process.
func stopGroup(cmd *exec.Cmd) { _ = cmd.Process.Kill() }

// killGroup terminates cmd; its children are not tracked on Windows.
func killGroup(cmd *exec.Cmd) { _ = cmd.Process.Kill() }
