//go:build unix

package transports

import (
	"os"
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"
)

// setProcessGroup starts the server as the leader of its own process group,
// so shutdown signals reach the processes it spawned too.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup signals the whole process group; ESRCH (already gone) is fine.
func (t *stdioTransport) killGroup(sig syscall.Signal) {
	_ = syscall.Kill(-t.pid, sig)
}

// exitSignal names the signal that killed the process (SIGKILL), or "" when
// it exited by itself.
func exitSignal(state *os.ProcessState) string {
	ws, ok := state.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() {
		return ""
	}
	if name := unix.SignalName(ws.Signal()); name != "" {
		return name
	}
	return ws.Signal().String()
}

// processTree is the server's process tree: on unix its process group
// (setProcessGroup), which killGroup addresses, so nothing is held.
type processTree struct{}

func newProcessTree(int) processTree { return processTree{} }

func (*processTree) release() {}
