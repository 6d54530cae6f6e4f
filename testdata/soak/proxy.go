package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// fault is one way a proxy misbehaves during an episode.
type fault string

const (
	faultNone  fault = ""
	faultDrop  fault = "drop"    // close every connection (FIN), and each new one at once
	faultReset fault = "reset"   // the same with RST (SO_LINGER 0)
	faultStall fault = "stall"   // forward nothing, either way, until the episode ends
	faultSlow  fault = "slow"    // forward slowReadChunk bytes per slowReadEvery, each way
	fault5xx   fault = "http5xx" // answer every request 503 and close, until the episode ends
	fault401   fault = "http401" // answer every request 401 and close (a 401 burst)
	// faultRestart is not the proxy's: the server behind it is killed and
	// started again on the same address (fleet.go), so its sessions are
	// gone and connecting is refused meanwhile.
	faultRestart fault = "restart"
)

const (
	slowReadChunk = 256
	slowReadEvery = 50 * time.Millisecond
)

// proxy is a loopback TCP proxy in front of one remote server. It reads
// the agent side's HTTP requests (every remote transport here is HTTP
// until a WebSocket upgrade), so it can answer one with an error status
// without the server seeing it; everything else it copies byte for byte.
type proxy struct {
	name     string
	ln       net.Listener
	upstream string // host:port of the server
	counts   *faultCounts

	mu      sync.Mutex
	fault   fault
	resume  chan struct{} // closed when the current stall or slow episode ends
	links   map[*link]struct{}
	stopped bool
}

// link is one proxied connection: the client's (mcpdeck's) and the
// server's side.
type link struct {
	c, u   net.Conn
	closed atomic.Bool
}

func (l *link) close(reset bool) {
	if !l.closed.CompareAndSwap(false, true) {
		return
	}
	if reset {
		if tc, ok := l.c.(*net.TCPConn); ok {
			_ = tc.SetLinger(0)
		}
	}
	_ = l.c.Close()
	_ = l.u.Close()
}

func newProxy(name string, counts *faultCounts) (*proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &proxy{name: name, ln: ln, counts: counts, links: map[*link]struct{}{}, resume: make(chan struct{})}
	close(p.resume)
	return p, nil
}

// addr is where mcpdeck connects.
func (p *proxy) addr() string { return p.ln.Addr().String() }

// serve accepts until close.
func (p *proxy) serve(upstream string) {
	p.upstream = upstream
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		go p.handle(c)
	}
}

func (p *proxy) close() {
	p.mu.Lock()
	p.stopped = true
	links := p.links
	p.links = map[*link]struct{}{}
	p.mu.Unlock()
	_ = p.ln.Close()
	for l := range links {
		l.close(false)
	}
}

// start begins an episode of f: drops and resets cut every connection
// now; a stall or slow episode holds the connections' copying until end.
func (p *proxy) start(f fault) {
	p.mu.Lock()
	p.fault = f
	var cut []*link
	switch f {
	case faultDrop, faultReset:
		for l := range p.links {
			cut = append(cut, l)
		}
	case faultStall, faultSlow:
		p.resume = make(chan struct{})
		for range p.links {
			p.counts.add(f)
		}
	case faultNone, fault5xx, fault401, faultRestart:
	}
	p.mu.Unlock()
	for _, l := range cut {
		l.close(f == faultReset)
		p.counts.add(f)
	}
}

// end ends the episode: connections flow again.
func (p *proxy) end() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.fault == faultStall || p.fault == faultSlow {
		close(p.resume)
	}
	p.fault = faultNone
}

// mode is the current fault and the channel a stall waits on.
func (p *proxy) mode() (fault, chan struct{}) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.fault, p.resume
}

func (p *proxy) handle(c net.Conn) {
	f, _ := p.mode()
	if f == faultDrop || f == faultReset {
		if tc, ok := c.(*net.TCPConn); ok && f == faultReset {
			_ = tc.SetLinger(0)
		}
		_ = c.Close()
		p.counts.add(f)
		return
	}
	u, err := net.DialTimeout("tcp", p.upstream, 5*time.Second)
	if err != nil { // the server is restarting: refuse as it would
		if tc, ok := c.(*net.TCPConn); ok {
			_ = tc.SetLinger(0)
		}
		_ = c.Close()
		return
	}
	l := &link{c: c, u: u}
	p.mu.Lock()
	if p.stopped {
		p.mu.Unlock()
		l.close(false)
		return
	}
	p.links[l] = struct{}{}
	if p.fault == faultStall || p.fault == faultSlow {
		p.counts.add(p.fault)
	}
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		delete(p.links, l)
		p.mu.Unlock()
		l.close(false)
	}()
	done := make(chan struct{})
	go func() { // server → client: bytes as they come
		_, _ = io.Copy(&gated{p: p, l: l, w: c}, u)
		l.close(false)
		close(done)
	}()
	p.requests(l)
	l.close(false)
	<-done
}

// requests copies the client's HTTP requests to the server one by one,
// answering one with an error status instead while an HTTP fault lasts;
// after a WebSocket upgrade it copies bytes.
func (p *proxy) requests(l *link) {
	br := bufio.NewReaderSize(l.c, 64<<10)
	w := &gated{p: p, l: l, w: l.u}
	for {
		req, err := http.ReadRequest(br)
		if err != nil {
			return
		}
		if f, _ := p.mode(); f == fault5xx || f == fault401 {
			_, _ = io.Copy(io.Discard, io.LimitReader(req.Body, 64<<20)) // read it whole, as a server would
			errorResponse(l.c, f)
			p.counts.add(f)
			return
		}
		if err := req.Write(w); err != nil {
			return
		}
		if strings.EqualFold(req.Header.Get("Upgrade"), "websocket") {
			_, _ = io.Copy(w, br)
			return
		}
	}
}

// errorResponse answers one request as a failing or refusing server does.
func errorResponse(c net.Conn, f fault) {
	status, body, extra := 503, "soak proxy: service unavailable", ""
	if f == fault401 {
		status, body, extra = 401, "soak proxy: unauthorized", "WWW-Authenticate: Bearer realm=\"soak\"\r\n"
	}
	_, _ = fmt.Fprintf(c, "HTTP/1.1 %d %s\r\nContent-Type: text/plain\r\nContent-Length: %d\r\nConnection: close\r\n%s\r\n%s",
		status, http.StatusText(status), len(body), extra, body)
}

// gated writes to one side of a link, waiting while a stall lasts and
// trickling while a slow episode lasts.
type gated struct {
	p *proxy
	l *link
	w io.Writer
}

var errLinkClosed = errors.New("link closed")

func (g *gated) Write(b []byte) (int, error) {
	n := 0
	for n < len(b) {
		if g.l.closed.Load() {
			return n, errLinkClosed
		}
		f, resume := g.p.mode()
		switch f {
		case faultStall:
			<-resume
			continue
		case faultSlow:
			end := min(n+slowReadChunk, len(b))
			m, err := g.w.Write(b[n:end])
			n += m
			if err != nil {
				return n, err
			}
			select {
			case <-resume:
			case <-time.After(slowReadEvery):
			}
			continue
		case faultNone, faultDrop, faultReset, fault5xx, fault401, faultRestart:
		}
		m, err := g.w.Write(b[n:])
		return n + m, err
	}
	return n, nil
}

// faultCounts counts the faults that reached mcpdeck, by kind.
type faultCounts struct {
	mu sync.Mutex
	n  map[fault]int
}

func (c *faultCounts) add(f fault) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[fault]int{}
	}
	c.n[f]++
}

func (c *faultCounts) snapshot() (map[string]int, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	out, total := map[string]int{}, 0
	for k, v := range c.n {
		out[string(k)] = v
		total += v
	}
	return out, total
}
