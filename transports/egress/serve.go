package egress

import (
	"bufio"
	"net"
	"time"
)

// serveConn reads the first byte of a connection, within the handshake
// deadline and the header bound, and hands it to SOCKS5 or HTTP.
func (p *Proxy) serveConn(c net.Conn) {
	_ = c.SetDeadline(time.Now().Add(p.limits.HandshakeTimeout))
	cr := &clientReader{c: c, limit: int64(p.limits.MaxHeaderBytes)}
	br := bufio.NewReader(cr)
	first, err := br.Peek(1)
	if err != nil {
		return
	}
	if first[0] == socksVersion {
		p.serveSOCKS(c, cr, br)
		return
	}
	p.serveHTTP(c, cr, br)
}
