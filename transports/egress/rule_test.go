package egress

import (
	"net/netip"
	"testing"

	"github.com/mcpdeck/mcpdeck/model/hostlist"
)

func TestAllows(t *testing.T) {
	r := Rule{Hosts: []string{
		"api.example.com", "*.github.com", "pypi.org:443",
		"127.0.0.1:8080", "[::1]:9090", "203.0.113.7", "localhost:3000",
	}}
	cases := []struct {
		host string
		port int
		want bool
	}{
		{"api.example.com", 443, true},
		{"API.EXAMPLE.COM.", 80, true},
		{"example.com", 443, false},
		{"evil-api.example.com", 443, false},
		{"api.example.com.evil.net", 443, false},
		{"raw.github.com", 443, true},
		{"a.b.github.com", 22, true},
		{"github.com", 443, false}, // a wildcard never matches its base
		{"notgithub.com", 443, false},
		{"pypi.org", 443, true},
		{"pypi.org", 80, false},
		{"127.0.0.1", 8080, true},
		{"127.0.0.1", 8081, false},
		{"::ffff:127.0.0.1", 8080, true},
		{"::1", 9090, true},
		{"[::1]", 9090, true},
		{"::1", 8080, false},
		{"203.0.113.7", 1, true},
		{"203.0.113.8", 1, false},
		{"localhost", 3000, true},
		{"LOCALHOST.", 3000, true},
		{"localhost", 3001, false},
		{"127.1", 8080, false},
		{"api.example.com", 0, false},
		{"api.example.com", 65536, false},
	}
	for _, c := range cases {
		if got := r.Allows(c.host, c.port); got != c.want {
			t.Errorf("Allows(%q, %d) = %v, want %v", c.host, c.port, got, c.want)
		}
	}
}

func TestAllowsAllReachesOnlyPublicLiterals(t *testing.T) {
	r := Rule{All: true}
	for host, want := range map[string]bool{
		"anything.example": true, "203.0.113.7": true, "2001:db8::1": true,
		"127.0.0.1": false, "::1": false, "10.1.2.3": false, "192.168.1.1": false,
		"169.254.169.254": false, "100.64.0.1": false, "0.0.0.0": false,
		"fd00::1": false, "fe80::1": false, "64:ff9b::7f00:1": false, "224.0.0.1": false,
	} {
		if got := r.Allows(host, 443); got != want {
			t.Errorf("All: Allows(%q) = %v, want %v", host, got, want)
		}
	}
}

// TestResolvedAddressesNeedLiteralListing: a listed name reaches public
// addresses; a loopback or private answer needs its IP listed, except
// loopback for an exact "localhost" entry.
func TestResolvedAddressesNeedLiteralListing(t *testing.T) {
	m, err := Rule{Hosts: []string{"api.example", "*.corp.example", "10.0.0.5:443", "localhost"}}.compile()
	if err != nil {
		t.Fatal(err)
	}
	name := func(s string) hostlist.Host { h, _ := hostlist.ParseHost(s); return h }
	cases := []struct {
		host, addr string
		port       int
		want       bool
	}{
		{"api.example", "203.0.113.1", 443, true},
		{"api.example", "127.0.0.1", 443, false},
		{"api.example", "::ffff:127.0.0.1", 443, false},
		{"git.corp.example", "10.0.0.5", 443, true},
		{"git.corp.example", "10.0.0.5", 22, false},
		{"git.corp.example", "10.0.0.6", 443, false},
		{"localhost", "127.0.0.1", 80, true},
		{"localhost", "::1", 80, true},
		{"localhost", "10.0.0.9", 80, false},
		{"a.localhost", "127.0.0.1", 80, false},
	}
	for _, c := range cases {
		kind := m.match(name(c.host), c.port)
		if got := m.allowsAddr(kind, netip.MustParseAddr(c.addr), c.port); got != c.want {
			t.Errorf("%s → %s:%d allowed = %v, want %v", c.host, c.addr, c.port, got, c.want)
		}
	}
}
