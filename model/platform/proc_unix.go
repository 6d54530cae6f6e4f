//go:build unix

package platform

import (
	"os"
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"
)

// setGroupAttr makes the program the leader of its own process group, so
// signals reach the processes it spawns too.
func setGroupAttr(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

// Signal sends s to the whole process group, and on Linux to the
// descendants that left it; a group already gone is fine.
func (g *Group) Signal(s Stop) {
	sig := syscall.SIGKILL
	switch s {
	case Interrupt:
		sig = syscall.SIGINT
	case Terminate:
		sig = syscall.SIGTERM
	case Kill:
	}
	_ = syscall.Kill(-g.Pid(), sig)
	g.tree.signal(g.Pid(), sig) // its fields are set before Start: no lock
}

// ExitSignal names the signal that ended a process ("SIGKILL"), or "" when
// it exited by itself.
func ExitSignal(state *os.ProcessState) string {
	ws, ok := state.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() {
		return ""
	}
	if name := unix.SignalName(ws.Signal()); name != "" {
		return name
	}
	return ws.Signal().String()
}
