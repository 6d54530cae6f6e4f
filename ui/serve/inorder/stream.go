package inorder

import (
	"bytes"
	"io"
	"sync"

	"github.com/mcpdeck/mcpdeck/model/lock"
)

// maxQueued bounds the notifications waiting on one stream, as mcp-go
// bounds a session's; past it a notification goes the ordinary way.
const maxQueued = 100

// item is one queued notification.
type item struct {
	msg      []byte // the encoded JSON-RPC notification
	fallback func() // sends it the ordinary way when this stream cannot
}

// Stream is one response stream (an HTTP request's, or stdio's) with a
// queue of notifications that is written out before anything else the
// server writes on it. A goroutine of its own writes the queue, so a
// handler never waits for a slow reader.
type Stream struct {
	out    io.Writer
	framed func(msg []byte) []byte // one message as the stream carries it
	// begin, when set, readies the stream for notifications before the
	// first one is written (HTTP: the SSE headers); false means it cannot
	// carry them. Called with wmu held.
	begin func() bool

	qmu     sync.Mutex
	queue   []item
	closed  bool
	started bool
	wake    chan struct{} // a notification was queued (buffered, 1)
	stop    chan struct{} // closed by close
	exited  chan struct{} // closed when the writer goroutine returns

	wmu     sync.Mutex
	partial bool // the server wrote part of an SSE event: nothing may come between
	broken  bool // a write failed: later notifications go the ordinary way
}

func newStream(out io.Writer, framed func([]byte) []byte) *Stream {
	return &Stream{
		out: out, framed: framed,
		wake: make(chan struct{}, 1), stop: make(chan struct{}), exited: make(chan struct{}),
	}
}

// enqueue queues msg, reporting false when the stream takes no more (it
// ended, or its queue is full): the caller then sends it the ordinary way.
func (s *Stream) enqueue(msg []byte, fallback func()) (queued bool) {
	lock.With(&s.qmu, func() {
		if s.closed || len(s.queue) >= maxQueued {
			return
		}
		s.queue = append(s.queue, item{msg: msg, fallback: fallback})
		if !s.started {
			s.started = true
			go s.run()
		}
		s.signal()
		queued = true
	})
	return queued
}

// signal wakes the writer goroutine. Callers hold qmu.
func (s *Stream) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// run writes queued notifications as they come, until close.
func (s *Stream) run() {
	defer close(s.exited)
	for {
		select {
		case <-s.stop:
			return
		case <-s.wake:
		}
		lock.With(&s.wmu, s.drainLocked)
	}
}

// take empties the queue.
func (s *Stream) take() (items []item) {
	lock.With(&s.qmu, func() { items, s.queue = s.queue, nil })
	return items
}

// drainLocked writes every queued notification, unless the server is in
// the middle of an SSE event (its next write finishes it and wakes the
// writer again). Callers hold wmu.
func (s *Stream) drainLocked() {
	if s.partial {
		return
	}
	items := s.take()
	if len(items) == 0 {
		return
	}
	if !s.broken && s.begin != nil && !s.begin() {
		s.broken = true
	}
	for i, it := range items {
		if s.broken {
			fallback(items[i:])
			return
		}
		if _, err := s.out.Write(s.framed(it.msg)); err != nil {
			s.broken = true
			fallback(items[i+1:])
			return
		}
	}
	if f, ok := s.out.(interface{ Flush() }); ok {
		f.Flush()
	}
}

// serverWrite writes p, which the server itself sends, after whatever is
// queued. sse says the stream carries SSE events, whose boundaries no
// notification may cut.
func (s *Stream) serverWrite(p []byte, sse bool) (n int, err error) {
	lock.With(&s.wmu, func() {
		s.drainLocked()
		if n, err = s.out.Write(p); err != nil {
			s.broken = true
		}
		if sse {
			s.partial = !bytes.HasSuffix(p, []byte("\n\n"))
			if !s.partial {
				lock.With(&s.qmu, func() {
					if len(s.queue) > 0 {
						s.signal()
					}
				})
			}
		}
	})
	return n, err
}

// close stops the stream taking notifications and returns those still
// queued. wait says to wait for the writer goroutine (HTTP: nothing may
// write on a response after its handler returned); stdio does not, so a
// reader that stopped reading cannot hold up the end.
func (s *Stream) close(wait bool) []item {
	var items []item
	var started bool
	lock.With(&s.qmu, func() {
		s.closed = true
		items, s.queue, started = s.queue, nil, s.started
	})
	if started {
		close(s.stop)
		if wait {
			<-s.exited
		}
	}
	return items
}

func fallback(items []item) {
	for _, it := range items {
		if it.fallback != nil {
			it.fallback()
		}
	}
}
