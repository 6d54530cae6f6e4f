//go:build unix

package main

import "syscall"

// socketPair makes and closes a connected pair of unix stream sockets,
// as runtimes do for their children's pipes: "pair", or the error.
func socketPair() string {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		return "error: " + err.Error()
	}
	_ = syscall.Close(fds[0])
	_ = syscall.Close(fds[1])
	return "pair"
}
