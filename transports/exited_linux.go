package transports

import (
	"bytes"
	"os"
	"strconv"
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

// pfExiting is the kernel's task flag for a process inside exit (set
// before it closes its files).
const pfExiting = 0x4

// exiting reports whether process pid has ended or is ending: when its
// stdout closed because it exits, the flag is already set, so the exit
// (and its status) is sure to follow however busy the machine is.
func exiting(pid int) bool {
	if hasExited(pid) {
		return true
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true // gone
	}
	// Fields after the command name: state ppid pgrp session tty_nr tpgid flags.
	i := bytes.LastIndexByte(b, ')')
	f := bytes.Fields(b[i+1:])
	if i < 0 || len(f) < 7 {
		return false
	}
	if f[0][0] == 'Z' || f[0][0] == 'X' {
		return true
	}
	flags, err := strconv.ParseUint(string(f[6]), 10, 64)
	return err == nil && flags&pfExiting != 0
}
