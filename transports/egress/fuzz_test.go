package egress

import (
	"strings"
	"testing"
)

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

// FuzzAllows holds Allows to the rule the package comment states: never
// a bad host or port, blind to case and a trailing dot, a wildcard never
// its base, an exact entry always itself, All only names and public
// addresses.
func FuzzAllows(f *testing.F) {
	f.Add("*.github.com", "raw.github.com", 443)
	f.Add("*.github.com", "github.com", 443)
	f.Add("api.example.com:443", "API.example.com.", 443)
	f.Add("127.0.0.1:8080", "127.0.0.1", 8080)
	f.Add("::1", "::ffff:127.0.0.1", 1)
	f.Add("bücher.example", "xn--bcher-kva.example", 80)
	f.Fuzz(func(t *testing.T, entry, hostname string, port int) {
		r := Rule{Hosts: []string{entry}}
		got := r.Allows(hostname, port)
		h, herr := parseHost(hostname)
		if got && (herr != nil || port < 1 || port > 65535) {
			t.Fatalf("%q allows the bad host %q port %d", entry, hostname, port)
		}
		if herr == nil && h.name != "" && isASCII(hostname) {
			if r.Allows(strings.ToUpper(hostname), port) != got {
				t.Fatalf("%q: case changes the answer for %q", entry, hostname)
			}
			if !strings.HasSuffix(hostname, ".") && r.Allows(hostname+".", port) != got {
				t.Fatalf("%q: a trailing dot changes the answer for %q", entry, hostname)
			}
		}
		all := Rule{All: true}.Allows(hostname, port)
		if want := herr == nil && port >= 1 && port <= 65535 && (h.name != "" || public(h.ip)); all != want {
			t.Fatalf("All.Allows(%q, %d) = %v, want %v", hostname, port, all, want)
		}
		e, err := ParseEntry(entry)
		if err != nil {
			if got {
				t.Fatalf("the bad entry %q allows %q", entry, hostname)
			}
			return
		}
		p := e.port
		if p == 0 {
			p = 443
		}
		if e.wildcard && r.Allows(e.host.name, p) {
			t.Fatalf("%q allows its base", entry)
		}
		if !e.wildcard && !r.Allows(e.host.String(), p) {
			t.Fatalf("%q does not allow itself", entry)
		}
	})
}
