// Package lock is the one way mcpdeck holds a mutex: With, which unlocks in
// a defer, so no return or panic in the guarded code can leave the mutex
// held, and Map, a map whose every access goes through With. The test at
// the repository's root (unlock_test.go) fails on any other unlock, in
// every package and on every OS's files.
//
// It imports only the standard library, so every layer may use it.
package lock

import "sync"

// With runs f holding l: a *sync.Mutex, or the read side of a
// sync.RWMutex (its RLocker), such as syscall.ForkLock's.
func With(l sync.Locker, f func()) {
	l.Lock()
	defer l.Unlock()
	f()
}
