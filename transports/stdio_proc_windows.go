//go:build windows

package transports

import (
	"os"
	"os/exec"
	"syscall"

	"golang.org/x/sys/windows"
)

// setProcessGroup starts the server in a new console process group, the
// only group Windows can address: CTRL_BREAK_EVENT then reaches it and not
// mcpdeck. Its own children are not tracked; they may outlive it.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

// killGroup maps the unix shutdown steps onto Windows: SIGINT and SIGTERM
// send CTRL_BREAK_EVENT to the server's console group (the graceful attempt;
// it fails harmlessly when there is no shared console), SIGKILL terminates
// the server process. Errors mean it is already gone.
func (t *stdioTransport) killGroup(sig syscall.Signal) {
	if sig == syscall.SIGKILL {
		_ = t.cmd.Process.Kill()
		return
	}
	_ = windows.GenerateConsoleCtrlEvent(windows.CTRL_BREAK_EVENT, uint32(t.pid))
}

// exitSignal is always "": Windows processes end with an exit code only
// (a terminated server reports code 1).
func exitSignal(*os.ProcessState) string { return "" }
