// Package lock is the engine's name for model/lock, the one way mcpdeck
// holds a mutex: the engine and its packages import it as engine/lock, and
// it hands every call to model/lock.With, so that there is one deferred
// unlock in the whole program (unlock_test.go at the repository's root).
package lock

import (
	"sync"

	"github.com/mcpdeck/mcpdeck/model/lock"
)

// With runs f holding mu (model/lock.With).
func With(mu *sync.Mutex, f func()) { lock.With(mu, f) }
