package egress

import (
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model/hostlist"
)

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
		h, herr := hostlist.ParseHost(hostname)
		if got && (herr != nil || port < 1 || port > 65535) {
			t.Fatalf("%q allows the bad host %q port %d", entry, hostname, port)
		}
		if herr == nil && h.Name() != "" && strings.IndexFunc(hostname, func(r rune) bool { return r >= 0x80 }) < 0 {
			if r.Allows(strings.ToUpper(hostname), port) != got {
				t.Fatalf("%q: case changes the answer for %q", entry, hostname)
			}
			if !strings.HasSuffix(hostname, ".") && r.Allows(hostname+".", port) != got {
				t.Fatalf("%q: a trailing dot changes the answer for %q", entry, hostname)
			}
		}
		all := Rule{All: true}.Allows(hostname, port)
		if want := herr == nil && port >= 1 && port <= 65535 && (h.Name() != "" || public(h.IP())); all != want {
			t.Fatalf("All.Allows(%q, %d) = %v, want %v", hostname, port, all, want)
		}
		e, err := hostlist.ParseEntry(entry)
		if err != nil {
			if got {
				t.Fatalf("the bad entry %q allows %q", entry, hostname)
			}
			return
		}
		if port < 1 || port > 65535 {
			return
		}
		if e.Wildcard() && r.Allows(e.Host().Name(), port) {
			t.Fatalf("%q allows its base", entry)
		}
		if !e.Wildcard() && r.Allows(e.Host().String(), port) != e.Matches(e.Host(), port) {
			t.Fatalf("%q on port %d: Allows of its own host disagrees with the entry", entry, port)
		}
	})
}
