package egress

import (
	"net"
	"sync/atomic"
	"time"
)

// idleWatch calls fire once no byte has moved for idle: touch on every
// read of either side, stop when the exchange ends. It costs no goroutine
// between checks.
type idleWatch struct {
	start   time.Time
	last    atomic.Int64 // nanoseconds since start, monotonic
	idle    time.Duration
	t       *time.Timer
	fire    func()
	stopped atomic.Bool
}

func newIdleWatch(idle time.Duration, fire func()) *idleWatch {
	w := &idleWatch{start: time.Now(), idle: idle, fire: fire}
	w.t = time.AfterFunc(idle, w.check)
	return w
}

func (w *idleWatch) touch() { w.last.Store(int64(time.Since(w.start))) }

func (w *idleWatch) check() {
	if w.stopped.Load() {
		return
	}
	quiet := time.Since(w.start) - time.Duration(w.last.Load())
	if quiet >= w.idle {
		w.fire()
		return
	}
	w.t.Reset(w.idle - quiet)
}

func (w *idleWatch) stop() {
	w.stopped.Store(true)
	w.t.Stop()
}

// clientReader reads a client connection: at most limit bytes while a
// handshake is read (limit < 0: no bound), telling the idle watch of each
// read once a tunnel runs.
type clientReader struct {
	c        net.Conn
	limit    int64
	exceeded bool
	watch    *idleWatch
}

func (r *clientReader) Read(b []byte) (int, error) {
	if r.limit == 0 {
		r.exceeded = true
		return 0, errHeaderTooLarge
	}
	if r.limit > 0 && int64(len(b)) > r.limit {
		b = b[:r.limit]
	}
	n, err := r.c.Read(b)
	if r.limit > 0 {
		r.limit -= int64(n)
	}
	if n > 0 && r.watch != nil {
		r.watch.touch()
	}
	return n, err
}

// watchedConn is an upstream connection whose reads touch an idle watch.
type watchedConn struct {
	net.Conn
	watch *idleWatch
}

func (c watchedConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	if n > 0 {
		c.watch.touch()
	}
	return n, err
}
