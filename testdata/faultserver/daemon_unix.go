//go:build unix

package main

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// startDaemon is the middle of -daemonize's double fork: it starts a
// sleeper in a new session, prints its pid and exits, leaving the sleeper
// in no process group of the server's and with no parent of its.
func startDaemon() int {
	self, _ := os.Executable()
	cmd := exec.Command(self, "-sleep")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "start the daemon:", err)
		return 1
	}
	fmt.Println(cmd.Process.Pid)
	return 0
}
