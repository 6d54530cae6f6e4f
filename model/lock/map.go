package lock

import "sync"

// Map is a map safe for concurrent use, in the manner of Crush's csync.Map:
// its mutex is its own, so whoever keeps one holds no lock by hand. Keys
// absent read as the zero V; Update makes them. The zero Map is ready.
type Map[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]*V
}

// Get returns a copy of the value under k (the zero V when absent). The
// copy is shallow: a slice or map inside is shared, so Update replaces
// those rather than changing them in place.
func (m *Map[K, V]) Get(k K) V {
	var v V
	With(&m.mu, func() {
		if p := m.m[k]; p != nil {
			v = *p
		}
	})
	return v
}

// Update runs f on the value under k, holding the map's mutex: f sees and
// changes the stored value (the zero V, stored, when k was absent). f must
// not call the map.
func (m *Map[K, V]) Update(k K, f func(v *V)) {
	With(&m.mu, func() {
		p := m.m[k]
		if p == nil {
			if m.m == nil {
				m.m = map[K]*V{}
			}
			p = new(V)
			m.m[k] = p
		}
		f(p)
	})
}
