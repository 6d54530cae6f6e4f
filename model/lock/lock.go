// Package lock is the one way mcpdeck holds a mutex: With, which unlocks in
// a defer, so no return or panic in the guarded code can leave the mutex
// held, and Map, a map whose every access goes through With. The test at
// the repository's root (unlock_test.go) fails on any other unlock, in
// every package and on every OS's files.
//
// It imports only the standard library, so every layer may use it.
package lock

import "sync"

// With runs f holding mu.
func With(mu *sync.Mutex, f func()) {
	mu.Lock()
	defer mu.Unlock()
	f()
}
