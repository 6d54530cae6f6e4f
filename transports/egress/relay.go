package egress

import (
	"context"
	"errors"
	"net"
	"sync"
	"time"
)

// relay is the shim's forwarder: every connection accepted on the
// namespace's loopback is joined to a connection to the proxy, which
// dial makes (through the broker, or to the proxy's socket).
type relay struct {
	ln    net.Listener
	dial  func(ctx context.Context) (net.Conn, error)
	ctx   context.Context // ends at close
	stop  context.CancelFunc
	wg    sync.WaitGroup
	conns connSet
}

func startRelay(ctx context.Context, ln net.Listener, dial func(ctx context.Context) (net.Conn, error)) *relay {
	r := &relay{ln: ln, dial: dial}
	r.ctx, r.stop = context.WithCancel(ctx)
	r.wg.Add(1)
	go r.accept()
	return r
}

func (r *relay) accept() {
	defer r.wg.Done()
	for {
		c, err := r.ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			select { // out of descriptors: let it pass
			case <-time.After(acceptBackoff):
			case <-r.ctx.Done():
				return
			}
			continue
		}
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			r.join(c)
		}()
	}
}

// join pipes c to a fresh connection to the proxy until both ends stop.
func (r *relay) join(c net.Conn) {
	if !r.conns.add(c) {
		return
	}
	defer r.conns.drop(c)
	up, err := r.dial(r.ctx)
	if err != nil {
		return
	}
	if !r.conns.add(up) {
		return
	}
	defer r.conns.drop(up)
	done := make(chan struct{})
	go func() {
		defer close(done)
		oneWay(c, up)
	}()
	oneWay(up, c)
	<-done
}

// close stops accepting, cuts every relayed connection and waits.
func (r *relay) close() {
	r.stop()
	r.conns.closeAll()
	_ = r.ln.Close()
	r.wg.Wait()
}
