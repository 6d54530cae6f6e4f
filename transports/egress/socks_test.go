package egress

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/proxy"
)

// socksClient is an HTTP client that reaches origins through the proxy's
// SOCKS5 side, with x/net's client sending names as names.
func socksClient(t *testing.T, p *Proxy) *http.Client {
	t.Helper()
	d, err := proxy.SOCKS5("tcp", p.Addr(), &proxy.Auth{User: testCred.User, Password: testCred.Password}, proxy.Direct)
	if err != nil {
		t.Fatal(err)
	}
	tr := &http.Transport{DialContext: d.(proxy.ContextDialer).DialContext}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr, Timeout: 20 * time.Second}
}

func TestSOCKS5ReachesListedByAddressAndName(t *testing.T) {
	o := newOrigin(t, false)
	res := &fixedResolver{addr: mustAddr("127.0.0.1")}
	port := strconv.Itoa(o.port())
	p, rec := startProxy(t, Options{Rule: Rule{Hosts: []string{"svc.test", o.hostPort()}}, Resolve: res.resolve})
	c := socksClient(t, p)
	if got := get(t, c, o.URL+"/ip"); got != "200 hello /ip" {
		t.Errorf("by IPv4 address: %q", got)
	}
	if got := get(t, c, "http://svc.test:"+port+"/name"); got != "200 hello /name" {
		t.Errorf("by name: %q", got)
	}
	if _, err := c.Get("http://other.test:" + port + "/"); err == nil {
		t.Error("an unlisted name was reached")
	}
	if r := rec.all(); len(r) != 1 || r[0].Host != "other.test" {
		t.Errorf("refusals = %+v", r)
	}
}

// TestSOCKS5IPv6 reaches a listed [::1] origin with the IPv6 address type.
func TestSOCKS5IPv6(t *testing.T) {
	var lc net.ListenConfig
	l, err := lc.Listen(t.Context(), "tcp", "[::1]:0")
	if err != nil {
		t.Skip("no IPv6 loopback here:", err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "six") }), ReadHeaderTimeout: time.Minute}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	p, _ := startProxy(t, Options{Rule: Rule{Hosts: []string{l.Addr().String()}}})
	if got := get(t, socksClient(t, p), "http://"+l.Addr().String()+"/"); got != "200 six" {
		t.Errorf("IPv6: %q", got)
	}
}

// TestSOCKS5Replies checks the reply codes byte for byte: 0x02 for a
// refusal, 0x07 for a command other than CONNECT, 0x08 for an unknown
// address type, 0xFF when no offered method is "user name and password";
// the user name and password exchange answers 01 00 first. The proxy
// reads every byte sent before it closes, so a read error (a reset that
// discarded the reply) is a failure that names its cause.
func TestSOCKS5Replies(t *testing.T) {
	o := newOrigin(t, false)
	p, rec := startProxy(t, Options{Rule: Rule{Hosts: []string{"203.0.113.9"}}})
	port := []byte{byte(o.port() >> 8), byte(o.port())}
	hello := socksHello()
	ok := []byte{5, 2, 1, 0} // method chosen, credential accepted
	cases := []struct {
		name string
		send []byte
		want []byte
	}{
		{"refused loopback", cat(hello, []byte{5, 1, 0, 1, 127, 0, 0, 1}, port), cat(ok, []byte{5, 2})},
		{"refused name", cat(hello, []byte{5, 1, 0, 3, 9}, []byte("localhost"), port), cat(ok, []byte{5, 2})},
		{"bind", cat(hello, []byte{5, 2, 0, 1, 203, 0, 113, 9}, port), cat(ok, []byte{5, 7})},
		{"bad address type", cat(hello, []byte{5, 1, 0, 9}), cat(ok, []byte{5, 8})},
		{"no authentication only", []byte{5, 1, 0}, []byte{5, 0xff}},
	}
	for _, c := range cases {
		conn, err := tcpDialer(p)(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		guard(t, conn)
		go conn.Write(c.send)
		got, err := io.ReadAll(conn)
		conn.Close()
		if err != nil || !bytes.HasPrefix(got, c.want) {
			t.Errorf("%s: reply % x (%v), want % x… and the proxy's close", c.name, got, err, c.want)
		}
	}
	if r := rec.all(); len(r) != 2 || r[0].Port != o.port() {
		t.Errorf("refusals = %+v", r)
	}
	if o.conns.Load() != 0 {
		t.Error("the loopback origin was reached")
	}
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// socksHello offers user name and password and sends the test
// credential.
func socksHello() []byte {
	return cat([]byte{5, 1, 2, 1, byte(len(testCred.User))}, []byte(testCred.User), []byte{byte(len(testCred.Password))}, []byte(testCred.Password))
}

// TestDialFailuresAreNotRefusals: a listed destination that does not
// answer is SOCKS5 reply 0x05 and HTTP 502, reported as no refusal; a
// refusal is an error that Is ErrRefused.
func TestDialFailuresAreNotRefusals(t *testing.T) {
	var lc net.ListenConfig
	l, err := lc.Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := l.Addr().(*net.TCPAddr)
	l.Close() // nothing listens there now
	p, rec := startProxy(t, Options{Rule: Rule{Hosts: []string{closed.String()}}})
	conn, err := tcpDialer(p)(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	guard(t, conn)
	go conn.Write(cat(socksHello(), []byte{5, 1, 0, 1, 127, 0, 0, 1}, []byte{byte(closed.Port >> 8), byte(closed.Port)}))
	if got, err := io.ReadAll(conn); err != nil || !bytes.HasPrefix(got, []byte{5, 2, 1, 0, 5, 5}) {
		t.Errorf("SOCKS5 reply % x (%v), want 05 02 01 00 05 05… and the proxy's close", got, err)
	}
	if got := get(t, client(t, tcpDialer(p), nil), "http://"+closed.String()+"/"); !strings.HasPrefix(got, "502 ") {
		t.Errorf("HTTP answer %q, want 502", got)
	}
	if r := rec.all(); len(r) != 0 {
		t.Errorf("refusals = %+v", r)
	}
	if _, err := p.dial(t.Context(), "other.test", 443); !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "other.test:443") {
		t.Errorf("refused dial = %v, want ErrRefused naming other.test:443", err)
	}
}
