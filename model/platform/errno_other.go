//go:build !windows

package platform

import "syscall"

// errnoAlias is e: these systems number their errors as syscall names them.
func errnoAlias(e syscall.Errno) syscall.Errno { return e }
