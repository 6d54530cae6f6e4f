//go:build unix

package oauth

import (
	"os/exec"
	"syscall"
)

// setProcessGroup puts the helper in its own process group and makes a
// timeout kill the whole group, so a script's children cannot hold the
// output pipe open.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
