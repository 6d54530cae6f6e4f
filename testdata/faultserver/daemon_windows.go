//go:build windows

package main

import (
	"fmt"
	"os"
)

// startDaemon: Windows has no sessions to leave; -daemonize is for Unix.
func startDaemon() int {
	fmt.Fprintln(os.Stderr, "-daemonize is for Unix")
	return 1
}
