package hostlist

import (
	"errors"
	"net/netip"
	"strings"
	"testing"
)

func TestParseEntryNormalises(t *testing.T) {
	for in, want := range map[string]string{
		"API.Example.COM.":         "api.example.com",
		" api.example.com ":        "api.example.com",
		"*.GitHub.com":             "*.github.com",
		"*.github.com:443":         "*.github.com:443",
		"127.0.0.1:8080":           "127.0.0.1:8080",
		"::1":                      "::1",
		"[::1]":                    "::1",
		"[::1]:8080":               "[::1]:8080",
		"::ffff:10.0.0.1":          "10.0.0.1",
		"bücher.example":           "xn--bcher-kva.example",
		"BÜCHER.example.:80":       "xn--bcher-kva.example:80",
		"_acme.example.com":        "_acme.example.com",
		"r3---sn-abc.example.com":  "r3---sn-abc.example.com",
		"localhost:3000":           "localhost:3000",
		"xn--bcher-kva.example:80": "xn--bcher-kva.example:80",
	} {
		e, err := ParseEntry(in)
		if err != nil {
			t.Errorf("ParseEntry(%q): %v", in, err)
			continue
		}
		if e.String() != want {
			t.Errorf("ParseEntry(%q) = %q, want %q", in, e, want)
		}
	}
}

func TestParseEntryRefuses(t *testing.T) {
	for _, in := range []string{
		"", "*", "*.", "*.*.example.com", "a.*.example.com", "example.*",
		"*.10.0.0.1", "example.com:", "example.com:0", "example.com:65536",
		"example.com:+80", "example.com:80:80", "::1:80x", "[::1", "[::1]x",
		"[10.0.0.1]", "fe80::1%eth0", "127.1", "0x7f000001", "host.0x10",
		"-a.example.com", "a..example.com", "exa mple.com", "http://example.com",
		"example.com/path", "a\x00b.com",
	} {
		if e, err := ParseEntry(in); !errors.Is(err, ErrBadEntry) {
			t.Errorf("ParseEntry(%q) = %v, %v; want ErrBadEntry", in, e, err)
		}
	}
}

// FuzzParseEntry: an entry that parses prints in a form that parses back
// to the same entry, in lower-case ASCII.
func FuzzParseEntry(f *testing.F) {
	for _, s := range []string{
		"api.example.com", "*.github.com:443", "[::1]:8080", "::1", "127.0.0.1:80",
		"Bücher.example.", "localhost", "*.", "127.1", "[::ffff:10.0.0.1]:22",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e, err := ParseEntry(s)
		if err != nil {
			return
		}
		out := e.String()
		if !isASCII(out) || strings.ToLower(out) != out {
			t.Fatalf("%q prints as %q", s, out)
		}
		back, err := ParseEntry(out)
		if err != nil || back != e {
			t.Fatalf("%q prints as %q, which parses to %+v, %v; want %+v", s, out, back, err, e)
		}
	})
}

// TestMatches: a wildcard covers names below its base, never the base; a
// port limits the entry to it; an IP entry matches the address only.
func TestMatches(t *testing.T) {
	cases := []struct {
		entry, host string
		port        int
		want        bool
	}{
		{"*.github.com", "raw.github.com", 443, true},
		{"*.github.com", "a.b.GitHub.com.", 22, true},
		{"*.github.com", "github.com", 443, false},
		{"*.github.com", "evilgithub.com", 443, false},
		{"api.example.com:443", "api.example.com", 443, true},
		{"api.example.com:443", "api.example.com", 80, false},
		{"api.example.com", "x.api.example.com", 443, false},
		{"[::1]:8080", "::1", 8080, true},
		{"127.0.0.1", "::ffff:127.0.0.1", 1, true},
		{"127.0.0.1", "localhost", 1, false},
		{"localhost", "127.0.0.1", 1, false},
	}
	for _, c := range cases {
		e, err := ParseEntry(c.entry)
		if err != nil {
			t.Fatal(err)
		}
		h, err := ParseHost(c.host)
		if err != nil {
			t.Fatal(err)
		}
		if got := e.Matches(h, c.port); got != c.want {
			t.Errorf("%q matches %q:%d = %v, want %v", c.entry, c.host, c.port, got, c.want)
		}
	}
	if e := NewEntry(AddrHost(netip.MustParseAddr("::1")), 80); e.String() != "[::1]:80" || e.Wildcard() || !e.Matches(AddrHost(netip.MustParseAddr("::1")), 80) {
		t.Errorf("NewEntry = %q", e)
	}
}
