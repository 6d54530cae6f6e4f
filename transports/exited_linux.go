package transports

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// hasExited reports, without reaping it, whether process pid has ended
// (waitid with WNOWAIT), so that Close can tell a child that died on its own
// from one it stopped.
func hasExited(pid int) bool {
	var info unix.Siginfo
	err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil)
	return err != nil || info.Signo == int32(syscall.SIGCHLD)
}
