package egress

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/netip"
	"syscall"
)

// The SOCKS5 numbers the proxy uses.
const (
	socksVersion    = 0x05
	socksUserPass   = 0x02
	socksNoMethod   = 0xff
	socksAuthVer    = 0x01 // the user name and password exchange's own version
	socksConnect    = 0x01
	socksIPv4       = 0x01
	socksDomain     = 0x03
	socksIPv6       = 0x04
	replyOK         = 0x00
	replyFailure    = 0x01
	replyNotAllowed = 0x02
	replyNetUnreach = 0x03
	replyHostUnrch  = 0x04
	replyRefused    = 0x05
	replyTTLExpired = 0x06
	replyBadCommand = 0x07
	replyBadAddress = 0x08
)

// serveSOCKS answers a SOCKS5 client: user name and password (the
// proxy's credential), CONNECT only.
func (p *Proxy) serveSOCKS(c net.Conn, cr *clientReader, br *bufio.Reader) {
	if !socksGreet(c, br) || !p.socksAuth(c, br) {
		return
	}
	var head [4]byte
	if _, err := io.ReadFull(br, head[:]); err != nil || head[0] != socksVersion {
		return
	}
	hostname, ok := socksReadHost(br, head[3])
	if !ok {
		socksReply(c, replyBadAddress)
		return
	}
	var pb [2]byte
	if _, err := io.ReadFull(br, pb[:]); err != nil {
		return
	}
	if head[1] != socksConnect {
		socksReply(c, replyBadCommand)
		return
	}
	up, err := p.dialHandshake(hostname, int(pb[0])<<8|int(pb[1]))
	if err != nil {
		socksReply(c, socksCode(err))
		return
	}
	defer p.conns.drop(up)
	socksReply(c, replyOK)
	p.pipe(c, cr, br, up)
}

// socksGreet reads the method offer and accepts "user name and
// password" (RFC 1929), the only one the proxy takes.
func socksGreet(c net.Conn, br *bufio.Reader) bool {
	var hello [2]byte
	if _, err := io.ReadFull(br, hello[:]); err != nil {
		return false
	}
	methods := make([]byte, hello[1])
	if _, err := io.ReadFull(br, methods); err != nil {
		return false
	}
	for _, m := range methods {
		if m == socksUserPass {
			_, err := c.Write([]byte{socksVersion, socksUserPass})
			return err == nil
		}
	}
	_, _ = c.Write([]byte{socksVersion, socksNoMethod})
	return false
}

// socksAuth reads the user name and password and answers whether they
// are the proxy's credential; a wrong one ends the connection.
func (p *Proxy) socksAuth(c net.Conn, br *bufio.Reader) bool {
	field := func() (string, bool) {
		n, err := br.ReadByte()
		if err != nil {
			return "", false
		}
		b := make([]byte, n)
		_, err = io.ReadFull(br, b)
		return string(b), err == nil
	}
	ver, err := br.ReadByte()
	if err != nil || ver != socksAuthVer {
		return false
	}
	user, ok := field()
	if !ok {
		return false
	}
	pass, ok := field()
	if !ok {
		return false
	}
	if !p.opts.Credential.matches(user, pass) {
		_, _ = c.Write([]byte{socksAuthVer, 0x01})
		return false
	}
	_, err = c.Write([]byte{socksAuthVer, 0x00})
	return err == nil
}

// socksReadHost reads the destination of a request in its address type.
func socksReadHost(br *bufio.Reader, atyp byte) (string, bool) {
	switch atyp {
	case socksIPv4:
		var b [4]byte
		_, err := io.ReadFull(br, b[:])
		return netip.AddrFrom4(b).String(), err == nil
	case socksIPv6:
		var b [16]byte
		_, err := io.ReadFull(br, b[:])
		return netip.AddrFrom16(b).String(), err == nil
	case socksDomain:
		n, err := br.ReadByte()
		if err != nil {
			return "", false
		}
		b := make([]byte, n)
		_, err = io.ReadFull(br, b)
		return string(b), err == nil
	}
	return "", false
}

// socksReply answers a request; the bound address is always 0.0.0.0:0,
// so the sandbox learns nothing of the host's addresses.
func socksReply(c net.Conn, code byte) {
	_, _ = c.Write([]byte{socksVersion, code, 0, socksIPv4, 0, 0, 0, 0, 0, 0})
}

// socksCode maps a dial error to its SOCKS5 reply.
func socksCode(err error) byte {
	var re *refusedError
	var ne net.Error
	switch {
	case errors.As(err, &re):
		return replyNotAllowed
	case errors.Is(err, syscall.ECONNREFUSED):
		return replyRefused
	case errors.Is(err, syscall.ENETUNREACH):
		return replyNetUnreach
	case errors.As(err, &ne) && ne.Timeout(), errors.Is(err, context.DeadlineExceeded):
		return replyTTLExpired
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, errNoAddress):
		return replyHostUnrch
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return replyHostUnrch
	}
	return replyFailure
}
