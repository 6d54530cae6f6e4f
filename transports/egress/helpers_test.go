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
	"net/url"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/model/hostlist"
	"github.com/mcpdeck/mcpdeck/testdata/winetest"
)

// refusals collects what OnRefuse reports.
type refusals struct {
	mu  sync.Mutex
	got []Refusal
}

func (r *refusals) add(x Refusal) {
	r.mu.Lock()
	r.got = append(r.got, x)
	r.mu.Unlock()
}

func (r *refusals) all() []Refusal {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Refusal(nil), r.got...)
}

// testCred is the credential of the tests' proxies (startProxy), and
// authLine its Proxy-Authorization header line, for raw requests.
var testCred = Credential{User: "mcpdeck", Password: "test-password-0123"}

const authLine = "Proxy-Authorization: Basic bWNwZGVjazp0ZXN0LXBhc3N3b3JkLTAxMjM=\r\n"

// startProxy starts a proxy with a private socket directory and the
// test credential (unless o names one), recording refusals, closed at
// cleanup.
func startProxy(t *testing.T, o Options) (*Proxy, *refusals) {
	t.Helper()
	rec := &refusals{}
	if o.Credential == (Credential{}) {
		o.Credential = testCred
	}
	if o.SocketDir == "" {
		o.SocketDir = t.TempDir()
	}
	if o.OnRefuse == nil {
		o.OnRefuse = rec.add
	}
	p, err := Start(t.Context(), o)
	if errors.Is(err, wsaEAFNOSUPPORT) {
		winetest.Skip(t, "Wine 8 has no AF_UNIX sockets: socket() fails with WSAEAFNOSUPPORT (Windows has them since 10 1803)")
	}
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() {
		if err := p.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return p, rec
}

// wsaEAFNOSUPPORT is Windows Sockets' "address family not supported".
const wsaEAFNOSUPPORT = syscall.Errno(10047)

// origin is a loopback HTTP server that answers "hello PATH" and counts
// the connections it accepted.
type origin struct {
	*httptest.Server
	conns atomic.Int32
	seen  chan http.Header // the headers of each request and its Host, when buffered
}

func newOrigin(t *testing.T, tls bool) *origin {
	t.Helper()
	o := &origin{seen: make(chan http.Header, 16)}
	o.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := r.Header.Clone()
		h.Set("Host", r.Host)
		select {
		case o.seen <- h:
		default:
		}
		fmt.Fprintf(w, "hello %s", r.URL.Path)
	}))
	o.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			o.conns.Add(1)
		}
	}
	if tls {
		o.StartTLS()
	} else {
		o.Start()
	}
	t.Cleanup(o.Close)
	return o
}

// port is the origin's loopback port.
func (o *origin) port() int {
	return o.Listener.Addr().(*net.TCPAddr).Port
}

// hostPort is "127.0.0.1:PORT" of the origin.
func (o *origin) hostPort() string { return "127.0.0.1:" + strconv.Itoa(o.port()) }

// dialer reaches the proxy over TCP or over its unix socket.
type dialer func(ctx context.Context) (net.Conn, error)

func tcpDialer(p *Proxy) dialer {
	return func(ctx context.Context) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "tcp", p.Addr())
	}
}

func unixDialer(p *Proxy) dialer {
	return func(ctx context.Context) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "unix", p.SocketPath())
	}
}

// client is an HTTP client that uses the proxy for http and https,
// reaching it through dial; roots trust the TLS origin when given.
func client(t *testing.T, dial dialer, tlsOrigin *origin) *http.Client {
	t.Helper()
	tr := &http.Transport{
		Proxy:       http.ProxyURL(&url.URL{Scheme: "http", User: url.UserPassword(testCred.User, testCred.Password), Host: "egress.invalid"}),
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) { return dial(ctx) },
	}
	if tlsOrigin != nil {
		tr.TLSClientConfig = tlsOrigin.Client().Transport.(*http.Transport).TLSClientConfig.Clone()
	}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr, Timeout: 20 * time.Second}
}

// get fetches url and returns "STATUS BODY".
func get(t *testing.T, c *http.Client, url string) string {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return strconv.Itoa(resp.StatusCode) + " " + string(b)
}

// rawConnect sends a CONNECT for target and returns the connection and
// the proxy's status code.
func rawConnect(t *testing.T, dial dialer, target string) (net.Conn, *bufio.Reader, int) {
	t.Helper()
	c, err := dial(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	guard(t, c)
	fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n"+authLine+"\r\n", target, target)
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, &http.Request{Method: http.MethodConnect})
	if err != nil {
		t.Fatalf("CONNECT %s: %v", target, err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
	}
	return c, br, resp.StatusCode
}

// guard bounds every read and write of a test connection, so a proxy
// that fails to answer fails the test instead of hanging it.
func guard(t *testing.T, c net.Conn) {
	t.Helper()
	if err := c.SetDeadline(time.Now().Add(20 * time.Second)); err != nil {
		t.Fatal(err)
	}
}

// expectClosed reads c to its end: the proxy must close it before the
// guard's deadline.
func expectClosed(t *testing.T, c io.Reader) {
	t.Helper()
	_, err := io.Copy(io.Discard, c)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatal("the proxy left the connection open")
	}
}

// fixedResolver answers every name with addr and counts the lookups.
type fixedResolver struct {
	addr    netip.Addr
	lookups atomic.Int32
}

func (f *fixedResolver) resolve(_ context.Context, _ string) ([]netip.Addr, error) {
	f.lookups.Add(1)
	return []netip.Addr{f.addr}, nil
}

// tcpServer is a raw TCP server on loopback until the test ends: each
// connection gets its own goroutine running handle, then is closed. ctx
// ends as the test does, before the server waits for its goroutines.
func tcpServer(tb testing.TB, handle func(ctx context.Context, c net.Conn)) string {
	tb.Helper()
	var lc net.ListenConfig
	l, err := lc.Listen(tb.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	ctx := tb.Context()
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			wg.Go(func() {
				defer c.Close()
				handle(ctx, c)
			})
		}
	})
	tb.Cleanup(func() { l.Close(); wg.Wait() })
	return l.Addr().String()
}

// hold is a server that keeps each connection open without a word until
// the test ends.
func hold(t *testing.T) string {
	t.Helper()
	return tcpServer(t, func(ctx context.Context, _ net.Conn) { <-ctx.Done() })
}

// exe is the test binary, re-executed as the shim or a child.
func exe(t *testing.T) string {
	t.Helper()
	p, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func mustAddr(s string) netip.Addr { return netip.MustParseAddr(s) }

// Allows reports, for the tests and the fuzz target, whether the rule lets a client ask for host on port,
// deciding on the name as written (an IP literal counts only when listed,
// or under All when public). A rule with an entry that does not parse
// allows nothing, as Start refuses it. The proxy also checks the
// addresses a name resolves to; Allows does not resolve.
func (r Rule) Allows(hostname string, port int) bool {
	m, err := r.compile()
	if err != nil {
		return false
	}
	h, err := hostlist.ParseHost(hostname)
	if err != nil {
		return false
	}
	return m.match(h, port) != matchNone
}
