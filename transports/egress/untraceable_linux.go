package egress

import "golang.org/x/sys/unix"

// untraceable makes the shim's process not dumpable: the server it runs
// (same user, same sandbox) can then neither ptrace it nor take its
// descriptors (pidfd_getfd) nor read its memory, so it cannot borrow the
// shim's unfiltered right to make unix sockets. Failing to set it is
// not fatal: the socket filter still binds the server itself.
func untraceable() { _ = unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0) }
