// Package platform is the OS plumbing every other mcpdeck package uses, one
// home each: replacing a file atomically without leaving where it may write
// (atomic.go, writetarget.go), locking a file against other mcpdeck
// processes (lock*.go), creating a file only the person may read
// (private*.go), a buffer that keeps at most N bytes (capbuf.go), and
// mcpdeck's default config and cache directories (dirs.go). Starting
// programs lives here too: finding one on a PATH, the shell runner and
// the browser opener (lookpath*.go, proc_*.go, shell*.go, browser*.go).
//
// It is a leaf: the standard library and golang.org/x/sys only, nothing of
// mcpdeck's, so model and everything above it can use it. A second copy of
// any of these elsewhere is a bug: two copies drift, and each drift has
// been a hole.
//
// It builds for Unix and Windows only: where there is neither flock nor
// LockFileEx there is no file lock, and a lock that does nothing is worse
// than none.
package platform
