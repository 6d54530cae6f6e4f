//go:build linux

package platform

import "golang.org/x/sys/unix"

// BecomeSubreaper makes this process the child subreaper of everything it
// starts: a descendant whose parent exits (a daemon's double fork) is
// reparented to mcpdeck rather than to init, so it stays in reach until
// its group ends (Group.Signal reaps the adopted members it kills).
func BecomeSubreaper() error {
	return unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
}
