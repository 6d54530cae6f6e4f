package egress

import (
	"io"
	"net"
	"time"
)

// copyBufSize is the buffer of each direction of a tunnel.
const copyBufSize = 32 << 10

// pipe runs a tunnel between the client (read through cr, whose buffer
// may already hold the first bytes) and up until both directions end or
// neither moves for Limits.IdleTimeout. An end of one direction is passed
// on as a half-close, so protocols that shut down writing still work.
func (p *Proxy) pipe(client net.Conn, cr *clientReader, br io.Reader, up net.Conn) {
	w := p.watchIdle(client, cr, up)
	defer w.stop()
	done := make(chan struct{})
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		defer close(done)
		oneWay(client, watchedConn{Conn: up, watch: w})
	}()
	oneWay(up, br)
	<-done
}

// oneWay copies src to dst, then half-closes dst: a clean end of src
// becomes an end of dst's stream, an error closes dst whole.
func oneWay(dst net.Conn, src io.Reader) {
	buf := make([]byte, copyBufSize)
	_, err := io.CopyBuffer(writerOnly{dst}, src, buf)
	if cw, ok := dst.(interface{ CloseWrite() error }); ok && err == nil {
		_ = cw.CloseWrite()
		return
	}
	_ = dst.Close()
}

// writerOnly hides a connection's ReadFrom, so CopyBuffer uses the given
// buffer and reads through the idle watch.
type writerOnly struct{ io.Writer }

// watchIdle ends the handshake of client: no deadline and no header
// bound from now on, but both sides cut once nothing moves for
// Limits.IdleTimeout.
func (p *Proxy) watchIdle(client net.Conn, cr *clientReader, up net.Conn) *idleWatch {
	_ = client.SetDeadline(time.Time{})
	w := newIdleWatch(p.limits.IdleTimeout, func() {
		_ = client.Close()
		_ = up.Close()
	})
	cr.limit, cr.watch = -1, w
	return w
}
