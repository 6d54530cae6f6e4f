package platform

import (
	"errors"
	"syscall"
)

// IsErrno reports whether err is the system error target (syscall.ECONNREFUSED,
// syscall.EADDRINUSE …), under whatever number this system gives it: on
// Windows a refused connection is WSAECONNREFUSED, which errors.Is does
// not equate with syscall.ECONNREFUSED, so a check written once for Unix
// names misses it there (errnoAlias).
func IsErrno(err error, target syscall.Errno) bool {
	if errors.Is(err, target) {
		return true
	}
	var e syscall.Errno
	return errors.As(err, &e) && errnoAlias(e) == target
}
