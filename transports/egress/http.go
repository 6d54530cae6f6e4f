package egress

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/mcpdeck/mcpdeck/model/hostlist"
)

// serveHTTP answers one request: CONNECT becomes a tunnel, an
// absolute-URI request is forwarded, and the connection closes after it.
func (p *Proxy) serveHTTP(c net.Conn, cr *clientReader, br *bufio.Reader) {
	req, err := http.ReadRequest(br)
	if err != nil {
		if cr.exceeded {
			answer(c, http.StatusRequestHeaderFieldsTooLarge, "the request header is larger than the proxy accepts")
		} else if !errors.Is(err, io.EOF) && !errors.Is(err, net.ErrClosed) {
			answer(c, http.StatusBadRequest, "the proxy could not read the request")
		}
		return
	}
	if !p.opts.Credential.allowsHeader(req.Header) {
		answerAuth(c)
		return
	}
	if req.Method == http.MethodConnect {
		p.serveConnect(c, cr, br, req)
		return
	}
	p.forward(c, cr, req)
}

// serveConnect opens the tunnel a CONNECT request asks for.
func (p *Proxy) serveConnect(c net.Conn, cr *clientReader, br *bufio.Reader, req *http.Request) {
	hostname, port, ok := splitTarget(req.RequestURI, 0)
	if !ok {
		answer(c, http.StatusBadRequest, "CONNECT needs a host:port target")
		return
	}
	up, err := p.dialHandshake(hostname, port)
	if err != nil {
		answerDial(c, err)
		return
	}
	defer p.conns.drop(up)
	if _, err := c.Write([]byte("HTTP/1.1 200 Connection established\r\n\r\n")); err != nil {
		return
	}
	p.pipe(c, cr, br, up)
}

// dialHandshake dials within the handshake deadline.
func (p *Proxy) dialHandshake(hostname string, port int) (net.Conn, error) {
	ctx, cancel := context.WithTimeout(p.ctx, p.limits.HandshakeTimeout)
	defer cancel()
	return p.dial(ctx, hostname, port)
}

// splitTarget reads "host:port" (IPv6 bracketed); a missing port takes
// def, and def 0 makes the port required.
func splitTarget(target string, def int) (string, int, bool) {
	hostname, portStr, err := net.SplitHostPort(target)
	if err != nil {
		if def == 0 || strings.Contains(target, "]:") {
			return "", 0, false
		}
		hostname, portStr = strings.TrimSuffix(strings.TrimPrefix(target, "["), "]"), strconv.Itoa(def)
	}
	if hostname == "" {
		return "", 0, false
	}
	port, err := hostlist.ParsePort(portStr)
	if err != nil {
		port = -1 // refused with its reason, not a parse error
	}
	return hostname, port, true
}

// answer writes a short plain-text HTTP response that closes the
// connection.
func answer(c net.Conn, status int, msg string) {
	_, _ = fmt.Fprintf(c, "HTTP/1.1 %d %s\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s\n",
		status, http.StatusText(status), len(msg)+1, msg)
}

// answerAuth asks for the proxy's credential (407) and closes: a client
// that knows it (from its proxy URL) sends it with its next request.
func answerAuth(c net.Conn) {
	const msg = "mcpdeck sandbox: this proxy needs its credential (the user and password in the proxy URL it was given)"
	_, _ = fmt.Fprintf(c, "HTTP/1.1 %d %s\r\nProxy-Authenticate: Basic realm=\"mcpdeck sandbox\"\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s\n",
		http.StatusProxyAuthRequired, http.StatusText(http.StatusProxyAuthRequired), len(msg)+1, msg)
}

// answerDial answers a failed dial: 403 for a refusal, 504 for a timeout,
// 502 otherwise, in a sentence without the request, and without the
// machine's resolver address a lookup error carries.
func answerDial(c net.Conn, err error) {
	var re *refusedError
	var ne net.Error
	var dnsErr *net.DNSError
	switch {
	case errors.As(err, &re):
		answer(c, http.StatusForbidden, "mcpdeck sandbox: "+re.Error())
	case errors.As(err, &dnsErr):
		answer(c, http.StatusBadGateway, "mcpdeck sandbox: could not look up "+dnsErr.Name)
	case errors.As(err, &ne) && ne.Timeout(), errors.Is(err, context.DeadlineExceeded):
		answer(c, http.StatusGatewayTimeout, "mcpdeck sandbox: the destination did not answer in time")
	default:
		answer(c, http.StatusBadGateway, "mcpdeck sandbox: "+err.Error())
	}
}

// hopHeaders are the headers that concern one connection, not the
// message; a proxy must not pass them on.
var hopHeaders = []string{
	"Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate",
	"Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade",
}

// dropHopHeaders removes the hop-by-hop headers and those Connection
// names.
func dropHopHeaders(h http.Header) {
	for _, v := range h.Values("Connection") {
		for f := range strings.SplitSeq(v, ",") {
			h.Del(strings.TrimSpace(f))
		}
	}
	for _, k := range hopHeaders {
		h.Del(k)
	}
}

// forward sends one absolute-URI http:// request to its host and copies
// the answer back.
func (p *Proxy) forward(c net.Conn, cr *clientReader, req *http.Request) {
	if !req.URL.IsAbs() || req.URL.Scheme != "http" || req.URL.Host == "" {
		answer(c, http.StatusBadRequest, "the proxy forwards absolute http:// URLs; use CONNECT for https and other protocols")
		return
	}
	if req.Header.Get("Upgrade") != "" {
		answer(c, http.StatusNotImplemented, "the proxy does not upgrade forwarded requests; use CONNECT")
		return
	}
	hostname, port, _ := splitTarget(req.URL.Host, 80)
	up, err := p.dialHandshake(hostname, port)
	if err != nil {
		answerDial(c, err)
		return
	}
	defer p.conns.drop(up)
	w := p.watchIdle(c, cr, up)
	defer w.stop()
	p.exchange(c, watchedConn{Conn: up, watch: w}, req)
}

// exchange writes req to up while reading up's response, so a server
// that answers before reading the whole body does not deadlock, and
// copies the response to the client. A client that expects 100 Continue
// gets it from the proxy once the destination is reached; the body then
// goes on unasked, so no interim response is passed on.
func (p *Proxy) exchange(c, up net.Conn, req *http.Request) {
	dropHopHeaders(req.Header)
	req.RequestURI = ""
	req.Close = true
	if strings.EqualFold(req.Header.Get("Expect"), "100-continue") {
		_, _ = io.WriteString(c, "HTTP/1.1 100 Continue\r\n\r\n")
	}
	req.Header.Del("Expect")
	wrote := make(chan struct{})
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		defer close(wrote)
		if err := req.Write(up); err != nil {
			_ = up.Close()
		}
	}()
	defer func() { <-wrote }()
	ur := bufio.NewReader(up)
	resp, err := http.ReadResponse(ur, req)
	for err == nil && resp.StatusCode < http.StatusOK {
		resp, err = http.ReadResponse(ur, req)
	}
	if err != nil {
		_ = up.Close()
		answer(c, http.StatusBadGateway, "mcpdeck sandbox: the destination did not answer with HTTP")
		return
	}
	defer func() { _ = resp.Body.Close() }()
	dropHopHeaders(resp.Header)
	resp.Close = true
	_ = resp.Write(c)
}
