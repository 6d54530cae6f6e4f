//go:build unix

package e2e

import (
	"os/exec"
	"syscall"
)

// ownGroup starts cmd as the leader of a new process group.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// stopGroup asks cmd's whole process group to end (SIGTERM).
func stopGroup(cmd *exec.Cmd) { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) }

// killGroup kills cmd's whole process group (SIGKILL).
func killGroup(cmd *exec.Cmd) { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
