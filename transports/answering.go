package transports

// maxAnswering bounds the server's requests (elicitation, sampling, roots,
// ping) being answered at once on one connection. Each answer runs on its
// own goroutine; a server that sends requests faster than it reads the
// answers (or never reads them) would otherwise grow one goroutine per
// request without end. The engine lets only a few of them wait for a
// person (engine.MaxPendingAsks, far below this) and declines the rest at
// once, so the places fill only while answers cannot be written.
const maxAnswering = 64

// answering holds the places of the answers under way on one connection.
type answering chan struct{}

func newAnswering() answering { return make(answering, maxAnswering) }

// run runs answer on its own goroutine once a place is free, waiting for
// one on the caller's goroutine (the connection's reader: while every place
// is taken, nothing more is read from a server that does not read its
// answers). It reports false, not running answer, when done closes first.
func (a answering) run(done <-chan struct{}, answer func()) bool {
	select {
	case a <- struct{}{}:
	case <-done:
		return false
	}
	go func() {
		defer func() { <-a }()
		answer()
	}()
	return true
}
