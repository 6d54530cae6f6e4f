//go:build windows

package platform

import (
	"syscall"

	"golang.org/x/sys/windows"
)

// wsaErrnos are the Windows errors meaning what the syscall errors of Unix
// mean: Windows Sockets numbers its own (WSAE…), and a pipe whose reader
// went away reports ERROR_NO_DATA or ERROR_BROKEN_PIPE.
var wsaErrnos = map[syscall.Errno]syscall.Errno{
	windows.WSAECONNREFUSED:   syscall.ECONNREFUSED,
	windows.WSAECONNRESET:     syscall.ECONNRESET,
	windows.WSAECONNABORTED:   syscall.ECONNABORTED,
	windows.WSAEHOSTUNREACH:   syscall.EHOSTUNREACH,
	windows.WSAENETUNREACH:    syscall.ENETUNREACH,
	windows.WSAETIMEDOUT:      syscall.ETIMEDOUT,
	windows.WSAEADDRINUSE:     syscall.EADDRINUSE,
	windows.ERROR_NO_DATA:     syscall.EPIPE,
	windows.ERROR_BROKEN_PIPE: syscall.EPIPE,
}

// errnoAlias is the syscall error e stands for, or e.
func errnoAlias(e syscall.Errno) syscall.Errno {
	if u, ok := wsaErrnos[e]; ok {
		return u
	}
	return e
}
