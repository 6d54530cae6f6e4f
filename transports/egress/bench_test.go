package egress

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"testing"

	"github.com/mcpdeck/mcpdeck/model/hostlist"
)

// sink is a server that reads each connection to its end, then answers
// one byte.
func sink(tb testing.TB) string {
	tb.Helper()
	return tcpServer(tb, func(_ context.Context, c net.Conn) {
		_, _ = io.Copy(io.Discard, c)
		_, _ = c.Write([]byte{'k'})
	})
}

// benchProxy starts a proxy that lists target.
func benchProxy(b *testing.B, target string) *Proxy {
	b.Helper()
	p, err := Start(b.Context(), Options{Rule: Rule{Hosts: []string{target}}, Credential: testCred})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { p.Close() })
	return p
}

// openTunnel dials the proxy and CONNECTs to target.
func openTunnel(b *testing.B, p *Proxy, target string) (*net.TCPConn, *bufio.Reader) {
	b.Helper()
	var d net.Dialer
	c, err := d.DialContext(b.Context(), "tcp", p.Addr())
	if err != nil {
		b.Fatal(err)
	}
	fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n"+authLine+"\r\n", target, target)
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, &http.Request{Method: http.MethodConnect})
	if err != nil || resp.StatusCode != http.StatusOK {
		b.Fatalf("CONNECT: %v %v", resp, err)
	}
	return c.(*net.TCPConn), br
}

// closeTunnel half-closes the tunnel and waits for the sink's byte, so
// every byte sent has crossed it.
func closeTunnel(b *testing.B, c *net.TCPConn, br *bufio.Reader) {
	b.Helper()
	if err := c.CloseWrite(); err != nil {
		b.Fatal(err)
	}
	if k, err := br.ReadByte(); err != nil || k != 'k' {
		b.Fatalf("end of tunnel: %q %v", k, err)
	}
	c.Close()
}

// BenchmarkTunnelSetup: one CONNECT tunnel opened, used and closed per
// operation (decision, dial, both copies, half-close).
func BenchmarkTunnelSetup(b *testing.B) {
	target := sink(b)
	p := benchProxy(b, target)
	b.ReportAllocs()
	for b.Loop() {
		c, br := openTunnel(b, p, target)
		closeTunnel(b, c, br)
	}
}

// BenchmarkTunnelThroughput: bytes through one open tunnel.
func BenchmarkTunnelThroughput(b *testing.B) {
	target := sink(b)
	p := benchProxy(b, target)
	c, br := openTunnel(b, p, target)
	chunk := make([]byte, 64<<10)
	b.SetBytes(int64(len(chunk)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Write(chunk); err != nil {
			b.Fatal(err)
		}
	}
	closeTunnel(b, c, br)
}

// BenchmarkAllows: one decision against a list of 50 entries.
func BenchmarkAllows(b *testing.B) {
	hosts := make([]string, 0, 50)
	for i := range 49 {
		hosts = append(hosts, "*.host"+strconv.Itoa(i)+".example.com:443")
	}
	m, err := Rule{Hosts: append(hosts, "api.example.com")}.compile()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		h, err := hostlist.ParseHost("API.example.com.")
		if err != nil || m.match(h, 443) == matchNone {
			b.Fatal("refused")
		}
	}
}
