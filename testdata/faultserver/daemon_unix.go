//go:build unix

package main

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// spawnDaemon starts a child that sleeps in a session of its own
// (setsid) with an empty environment, as a server that daemonizes does:
// killing the server's process group does not reach it, and nothing it
// inherited marks it.
func spawnDaemon() error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command(self, "-sleep")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.Env = []string{}
	if err := cmd.Start(); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "daemon pid %d\n", cmd.Process.Pid)
	return nil
}

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
