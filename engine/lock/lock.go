// Package lock holds the one way the engine and its packages take a
// mutex: With, which unlocks in a defer, so no return or panic in the
// guarded code can leave the mutex held. A test in the engine
// (engine/lock_test.go) fails on any other unlock.
package lock

import "sync"

// With runs f holding mu.
func With(mu *sync.Mutex, f func()) {
	mu.Lock()
	defer mu.Unlock()
	f()
}
