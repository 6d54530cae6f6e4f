package egress

import (
	"net"
	"sync"

	"github.com/mcpdeck/mcpdeck/model/lock"
)

// connSet holds the open connections of a proxy or a relay, so closing
// it cuts every one, including those added while it closes.
type connSet struct {
	mu     sync.Mutex
	closed bool
	conns  map[net.Conn]struct{}
}

// add records c; false (and c closed) once the set is closed.
func (s *connSet) add(c net.Conn) (added bool) {
	lock.With(&s.mu, func() {
		if s.closed {
			_ = c.Close()
			return
		}
		if s.conns == nil {
			s.conns = map[net.Conn]struct{}{}
		}
		s.conns[c] = struct{}{}
		added = true
	})
	return added
}

// drop closes c and forgets it.
func (s *connSet) drop(c net.Conn) {
	_ = c.Close()
	lock.With(&s.mu, func() { delete(s.conns, c) })
}

// closeAll marks the set closed and closes what it holds (outside the
// lock: a close may take its time).
func (s *connSet) closeAll() {
	var conns []net.Conn
	lock.With(&s.mu, func() {
		s.closed = true
		conns = make([]net.Conn, 0, len(s.conns))
		for c := range s.conns {
			conns = append(conns, c)
		}
	})
	for _, c := range conns {
		_ = c.Close()
	}
}
