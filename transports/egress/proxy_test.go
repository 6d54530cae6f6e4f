package egress

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestListedLoopbackWorksUnlistedIsRefused is the test on both
// listeners and for HTTPS through CONNECT and plain HTTP forwarding: a
// listed 127.0.0.1:PORT answers, another loopback port is refused with
// 403 and reported, and never sees a connection.
func TestListedLoopbackWorksUnlistedIsRefused(t *testing.T) {
	listed, unlisted := newOrigin(t, true), newOrigin(t, true)
	plain, plainUnlisted := newOrigin(t, false), newOrigin(t, false)
	p, rec := startProxy(t, Options{Rule: Rule{Hosts: []string{listed.hostPort(), plain.hostPort()}}})
	for name, dial := range map[string]dialer{"tcp": tcpDialer(p), "unix": unixDialer(p)} {
		t.Run(name, func(t *testing.T) {
			c := client(t, dial, listed)
			if got := get(t, c, listed.URL+"/tls"); got != "200 hello /tls" {
				t.Errorf("HTTPS to the listed origin = %q", got)
			}
			if got := get(t, c, plain.URL+"/plain"); got != "200 hello /plain" {
				t.Errorf("HTTP to the listed origin = %q", got)
			}
			if _, err := c.Get(unlisted.URL); err == nil || !strings.Contains(err.Error(), "Forbidden") {
				t.Errorf("HTTPS to an unlisted loopback port: err = %v, want the proxy's 403", err)
			}
			if got := get(t, c, plainUnlisted.URL+"/x"); !strings.HasPrefix(got, "403 ") || !strings.Contains(got, "refused") {
				t.Errorf("HTTP to an unlisted loopback port = %q, want 403", got)
			}
		})
	}
	if n := unlisted.conns.Load() + plainUnlisted.conns.Load(); n != 0 {
		t.Errorf("the unlisted origins saw %d connections", n)
	}
	got := rec.all()
	if len(got) != 4 {
		t.Fatalf("refusals = %+v, want 4", got)
	}
	for _, r := range got {
		if r.Host != "127.0.0.1" || (r.Port != unlisted.port() && r.Port != plainUnlisted.port()) ||
			r.Reason != reasonIPNotListed || time.Since(r.At) > time.Minute {
			t.Errorf("refusal = %+v", r)
		}
	}
}

// TestForwardDropsHopHeaders: what the client said to the proxy stays
// with the proxy, and the Host the destination sees is the host the
// proxy decided on, whatever Host header the client wrote.
func TestForwardDropsHopHeaders(t *testing.T) {
	o := newOrigin(t, false)
	p, _ := startProxy(t, Options{Rule: Rule{Hosts: []string{o.hostPort()}}})
	c, err := tcpDialer(p)(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	guard(t, c)
	fmt.Fprintf(c, "GET %s/h HTTP/1.1\r\nHost: unlisted.test\r\n"+authLine+
		"Proxy-Connection: keep-alive\r\nConnection: X-Private\r\nX-Private: yes\r\nX-Kept: yes\r\n\r\n", o.URL)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("answer %v, %v", resp, err)
	}
	resp.Body.Close()
	h := <-o.seen
	for _, k := range []string{"Proxy-Authorization", "X-Private", "Proxy-Connection"} {
		if h.Get(k) != "" {
			t.Errorf("the origin saw %s: %q", k, h.Get(k))
		}
	}
	if h.Get("Host") != o.hostPort() {
		t.Errorf("the origin saw Host %q, want %q", h.Get("Host"), o.hostPort())
	}
	if h.Get("X-Kept") != "yes" {
		t.Errorf("the origin lost X-Kept: %v", h)
	}
}

// TestRefusedNameIsNeverLookedUp: the decision comes before DNS, and a
// listed name is looked up by the proxy itself.
func TestRefusedNameIsNeverLookedUp(t *testing.T) {
	o := newOrigin(t, false)
	res := &fixedResolver{addr: mustAddr("127.0.0.1")}
	port := strconv.Itoa(o.port())
	p, rec := startProxy(t, Options{
		Rule:    Rule{Hosts: []string{"svc.test", "127.0.0.1:" + port}},
		Resolve: res.resolve,
	})
	c := client(t, tcpDialer(p), nil)
	if got := get(t, c, "http://other.test:"+port+"/"); !strings.HasPrefix(got, "403 ") {
		t.Errorf("unlisted name = %q, want 403", got)
	}
	if n := res.lookups.Load(); n != 0 {
		t.Errorf("the refused name was looked up %d times", n)
	}
	if got := get(t, c, "http://SVC.test.:"+port+"/n"); got != "200 hello /n" {
		t.Errorf("listed name = %q", got)
	}
	if n := res.lookups.Load(); n != 1 {
		t.Errorf("lookups = %d, want 1", n)
	}
	if r := rec.all(); len(r) != 1 || r[0].Host != "other.test" || r[0].Reason != reasonNotListed {
		t.Errorf("refusals = %+v", r)
	}
}

// TestListedNameResolvingToLoopbackIsRefused: DNS cannot turn a listed
// public name into a way to the machine's own services.
func TestListedNameResolvingToLoopbackIsRefused(t *testing.T) {
	o := newOrigin(t, false)
	res := &fixedResolver{addr: mustAddr("::ffff:127.0.0.1")}
	p, rec := startProxy(t, Options{Rule: Rule{Hosts: []string{"api.test"}}, Resolve: res.resolve})
	got := get(t, client(t, tcpDialer(p), nil), "http://api.test:"+strconv.Itoa(o.port())+"/")
	if !strings.HasPrefix(got, "403 ") || !strings.Contains(got, "127.0.0.1") {
		t.Errorf("answer = %q, want 403 naming 127.0.0.1", got)
	}
	if o.conns.Load() != 0 {
		t.Error("the loopback origin was reached")
	}
	if r := rec.all(); len(r) != 1 || r[0].Host != "api.test" || !strings.Contains(r[0].Reason, "127.0.0.1") {
		t.Errorf("refusals = %+v", r)
	}
}

// TestLocalhostEntryReachesLoopback: an exact "localhost" entry is a
// literal listing of loopback, resolved without DNS.
func TestLocalhostEntryReachesLoopback(t *testing.T) {
	o := newOrigin(t, false)
	res := &fixedResolver{addr: mustAddr("203.0.113.1")}
	port := strconv.Itoa(o.port())
	p, _ := startProxy(t, Options{Rule: Rule{Hosts: []string{"localhost:" + port}}, Resolve: res.resolve})
	if got := get(t, client(t, tcpDialer(p), nil), "http://localhost:"+port+"/l"); got != "200 hello /l" {
		t.Errorf("answer = %q", got)
	}
	if res.lookups.Load() != 0 {
		t.Error("localhost was looked up")
	}
}

// TestBadRequestsAreAnswered: each malformed or unsupported request gets
// its status and a closed connection, never a dial.
func TestBadRequestsAreAnswered(t *testing.T) {
	p, rec := startProxy(t, Options{Rule: Rule{All: true}})
	cases := map[string]string{
		"GET /path HTTP/1.1\r\n" + authLine + "Host: x.test\r\n\r\n":                                "400",
		"GET https://x.test/ HTTP/1.1\r\n" + authLine + "Host: x.test\r\n\r\n":                      "400",
		"CONNECT x.test HTTP/1.1\r\n" + authLine + "Host: x.test\r\n\r\n":                           "400",
		"GET http://x.test/ HTTP/1.1\r\n" + authLine + "Host: x.test\r\nUpgrade: websocket\r\n\r\n": "501",
		"CONNECT 127.1:80 HTTP/1.1\r\n" + authLine + "Host: 127.1:80\r\n\r\n":                       "403",
		"CONNECT x.test:99999 HTTP/1.1\r\n" + authLine + "Host: x.test\r\n\r\n":                     "403",
		"not http at all\r\n\r\n": "400",
		"GET http://x.test/ HTTP/1.1\r\nX: " + strings.Repeat("a", 40<<10) + "\r\n\r\n": "431",
	}
	for req, want := range cases {
		c, err := tcpDialer(p)(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		guard(t, c)
		go c.Write([]byte(req))
		status := make([]byte, 12)
		if _, err := c.Read(status); err != nil || string(status[9:12]) != want {
			t.Errorf("%.40q: answer %q (%v), want %s", req, status, err, want)
		}
		expectClosed(t, c)
		c.Close()
	}
	r := rec.all()
	if len(r) != 2 || r[0].Reason == r[1].Reason {
		t.Errorf("refusals = %+v, want the bad host and the bad port", r)
	}
}

// TestSocketIsPrivate: the socket is 0600, in a directory only its owner
// enters, and gone after Close.
func TestSocketIsPrivate(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("modes keep the socket private on Unix; on Windows its directory's ACL does")
	}
	open := t.TempDir()
	if err := os.Chmod(open, 0o777); err != nil {
		t.Fatal(err)
	}
	if _, err := Start(t.Context(), Options{SocketDir: open}); !errors.Is(err, ErrSocketDir) {
		t.Fatalf("Start in a 0777 directory = %v, want ErrSocketDir", err)
	}
	p, err := Start(t.Context(), Options{SocketDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p.SocketPath())
	if err != nil || fi.Mode().Perm() != 0o600 || fi.Mode().Type() != os.ModeSocket {
		t.Errorf("socket %v mode %v", err, fi.Mode())
	}
	if !strings.HasPrefix(p.Addr(), "127.0.0.1:") {
		t.Errorf("Addr = %q", p.Addr())
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p.SocketPath()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the socket outlived Close: %v", err)
	}
}

// TestBadRuleFailsStart: a typo in the list fails before anything runs,
// naming the entry.
func TestBadRuleFailsStart(t *testing.T) {
	_, err := Start(t.Context(), Options{Rule: Rule{Hosts: []string{"ok.example", "*.*"}}})
	if !errors.Is(err, ErrBadEntry) || !strings.Contains(err.Error(), `host entry "*.*"`) {
		t.Fatalf("Start = %v, want ErrBadEntry naming the entry", err)
	}
}

// TestLookupFailureIsA502WithoutTheResolver: a name that does not resolve
// is a bad gateway naming the host, not the machine's DNS server.
func TestLookupFailureIsA502WithoutTheResolver(t *testing.T) {
	p, rec := startProxy(t, Options{
		Rule: Rule{Hosts: []string{"gone.test"}},
		Resolve: func(_ context.Context, name string) ([]netip.Addr, error) {
			return nil, &net.DNSError{Err: "no such host", Name: name, Server: "192.0.2.53:53", IsNotFound: true}
		},
	})
	got := get(t, client(t, tcpDialer(p), nil), "http://gone.test/")
	if !strings.HasPrefix(got, "502 ") || !strings.Contains(got, "gone.test") || strings.Contains(got, "192.0.2.53") {
		t.Errorf("answer = %q, want 502 naming the host only", got)
	}
	if len(rec.all()) != 0 {
		t.Errorf("a failed lookup is not a refusal: %+v", rec.all())
	}
}

// TestForwardAnswersExpectContinue: a client waiting for 100 Continue
// before its body gets it, and the body arrives whole.
func TestForwardAnswersExpectContinue(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		fmt.Fprintf(w, "got %d", len(b))
	}))
	t.Cleanup(srv.Close)
	hostPort := strings.TrimPrefix(srv.URL, "http://")
	p, _ := startProxy(t, Options{Rule: Rule{Hosts: []string{hostPort}}})
	c := client(t, tcpDialer(p), nil)
	c.Transport.(*http.Transport).ExpectContinueTimeout = time.Hour
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/", strings.NewReader(strings.Repeat("x", 100000)))
	req.Header.Set("Expect", "100-continue")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if b, _ := io.ReadAll(resp.Body); string(b) != "got 100000" {
		t.Errorf("answer %q", b)
	}
}

// TestRefusalNamesTheEntryThatAllowsIt: Allow is the entry to add, and
// adding it lets the same connection through: a name first, then the
// address it resolves to, since loopback must be listed as an address.
func TestRefusalNamesTheEntryThatAllowsIt(t *testing.T) {
	o := newOrigin(t, false)
	port := strconv.Itoa(o.port())
	res := &fixedResolver{addr: mustAddr("127.0.0.1")}
	for _, c := range []struct {
		url  string
		want []string
	}{
		{"http://Svc.Test:" + port + "/", []string{"svc.test:" + port, "127.0.0.1:" + port}},
		{"http://[::ffff:127.0.0.1]:" + port + "/", []string{"127.0.0.1:" + port}},
	} {
		var hosts []string
		for range len(c.want) {
			p, rec := startProxy(t, Options{Rule: Rule{Hosts: hosts}, Resolve: res.resolve})
			if got := get(t, client(t, tcpDialer(p), nil), c.url); !strings.HasPrefix(got, "403 ") {
				t.Fatalf("%s with %q: %q, want 403", c.url, hosts, got)
			}
			r := rec.all()
			if len(r) != 1 {
				t.Fatalf("refusals = %+v", r)
			}
			hosts = append(hosts, r[0].Allow)
		}
		if !slices.Equal(hosts, c.want) {
			t.Errorf("%s: entries added = %q, want %q", c.url, hosts, c.want)
		}
		p, _ := startProxy(t, Options{Rule: Rule{Hosts: hosts}, Resolve: res.resolve})
		if got := get(t, client(t, tcpDialer(p), nil), c.url); got != "200 hello /" {
			t.Errorf("%s with the entries added: %q", c.url, got)
		}
	}
}
