package egress

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestProxyRefusesWithoutItsCredential: another local user can reach
// the proxy's loopback port, but without the credential nothing goes
// through: CONNECT and forwarded requests with none or a wrong one get
// 407 on either listener, a SOCKS5 client offering no user name and
// password gets "no acceptable method", and one with a wrong password
// is turned away; no origin is ever dialed and no refusal reported.
func TestProxyRefusesWithoutItsCredential(t *testing.T) {
	o := newOrigin(t, false)
	p, rec := startProxy(t, Options{Rule: Rule{Hosts: []string{o.hostPort()}}})
	wrong := "Proxy-Authorization: Basic bWNwZGVjazp3cm9uZw==\r\n" // mcpdeck:wrong
	for _, dial := range []dialer{tcpDialer(p), unixDialer(p)} {
		for _, req := range []string{
			"CONNECT " + o.hostPort() + " HTTP/1.1\r\nHost: " + o.hostPort() + "\r\n\r\n",
			"CONNECT " + o.hostPort() + " HTTP/1.1\r\nHost: " + o.hostPort() + "\r\n" + wrong + "\r\n",
			"GET " + o.URL + "/ HTTP/1.1\r\nHost: " + o.hostPort() + "\r\n\r\n",
			"GET " + o.URL + "/ HTTP/1.1\r\nHost: " + o.hostPort() + "\r\nProxy-Authorization: Bearer test-password-0123\r\n\r\n",
		} {
			c, err := dial(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			guard(t, c)
			fmt.Fprint(c, req)
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil || resp.StatusCode != http.StatusProxyAuthRequired || !strings.HasPrefix(resp.Header.Get("Proxy-Authenticate"), "Basic ") {
				t.Errorf("%q: %v, %v", req, resp, err)
			}
			expectClosed(t, c)
			c.Close()
		}
	}
	for _, hello := range [][]byte{
		{socksVersion, 1, 0x00}, // no authentication only
		{socksVersion, 1, socksUserPass, socksAuthVer, 7, 'm', 'c', 'p', 'd', 'e', 'c', 'k', 5, 'w', 'r', 'o', 'n', 'g'},
	} {
		c, err := tcpDialer(p)(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		guard(t, c)
		_, _ = c.Write(hello)
		got, _ := io.ReadAll(c)
		want := []byte{socksVersion, socksNoMethod}
		if hello[2] == socksUserPass {
			want = []byte{socksVersion, socksUserPass, socksAuthVer, 0x01}
		}
		if string(got) != string(want) {
			t.Errorf("SOCKS5 %x: answered %x, want %x and the end", hello, got, want)
		}
		c.Close()
	}
	if n := o.conns.Load(); n != 0 {
		t.Errorf("the origin saw %d connections", n)
	}
	if r := rec.all(); len(r) != 0 {
		t.Errorf("refusals %+v", r)
	}
	if got := get(t, client(t, tcpDialer(p), nil), o.URL+"/with"); got != "200 hello /with" {
		t.Errorf("with the credential: %q", got)
	}
}

// TestEveryProxyHasItsOwnCredential: Start draws a random one when the
// options give none.
func TestEveryProxyHasItsOwnCredential(t *testing.T) {
	a, _ := startProxy(t, Options{Credential: newCredential()})
	b, err := Start(t.Context(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if b.Credential().Password == "" || len(b.Credential().Password) < 32 || a.Credential() == b.Credential() {
		t.Errorf("credentials %v and %v", a.Credential(), b.Credential())
	}
	if c, ok := ParseCredential(b.Credential().String()); !ok || c != b.Credential() {
		t.Errorf("ParseCredential(%q) = %v, %v", b.Credential(), c, ok)
	}
}

// TestClientsSendTheCredential: curl and Python's urllib, given the
// proxy variables Env sets, present the credential and get through;
// skipped where the program is missing.
func TestClientsSendTheCredential(t *testing.T) {
	o := newOrigin(t, false)
	p, _ := startProxy(t, Options{Rule: Rule{Hosts: []string{o.hostPort()}}})
	env := Env(os.Environ(), p.Credential().ProxyURL(p.Addr()))
	for name, argv := range map[string][]string{
		"curl":    {"curl", "-sS", o.URL + "/curl"},
		"python3": {"python3", "-c", "import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1]).read().decode())", o.URL + "/python3"},
	} {
		if _, err := exec.LookPath(argv[0]); err != nil {
			t.Logf("%s is not installed: not tried", name)
			continue
		}
		cmd := exec.CommandContext(t.Context(), argv[0], argv[1:]...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil || string(out) != "hello /"+name {
			t.Errorf("%s through the proxy: %q, %v", name, out, err)
		}
	}
}
