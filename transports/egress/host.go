package egress

import (
	"fmt"
	"net/netip"
	"strings"

	"golang.org/x/net/idna"
)

// maxNameLen is the longest host name DNS can carry, in ASCII form.
const maxNameLen = 253

// host is a destination host in its one compared form: an IP address, or
// a lower-case ASCII name without a trailing dot.
type host struct {
	ip   netip.Addr // valid for an IP literal
	name string     // set for a name
}

func (h host) String() string {
	if h.ip.IsValid() {
		return h.ip.String()
	}
	return h.name
}

// parseHost normalises a host as a client or an entry writes it: IPv6 may
// be bracketed, a name may carry upper case, one trailing dot and
// non-ASCII letters (converted with IDNA). Zones, empty labels and
// numeric last labels ("127.1", which some resolvers read as 127.0.0.1)
// are refused.
func parseHost(s string) (host, error) {
	if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
		s = s[1 : len(s)-1]
		ip, err := netip.ParseAddr(s)
		if err != nil || !ip.Is6() {
			return host{}, fmt.Errorf("%w: %q is not an IPv6 address", ErrBadEntry, s)
		}
	}
	if ip, err := netip.ParseAddr(s); err == nil {
		if ip.Zone() != "" {
			return host{}, fmt.Errorf("%w: the address %q has a zone", ErrBadEntry, s)
		}
		return host{ip: ip.Unmap()}, nil
	}
	name, err := normaliseName(s)
	if err != nil {
		return host{}, err
	}
	return host{name: name}, nil
}

// normaliseName returns the compared form of a host name, or ErrBadEntry.
func normaliseName(s string) (string, error) {
	s = strings.TrimSuffix(s, ".")
	if !isASCII(s) {
		a, err := idna.Lookup.ToASCII(s)
		if err != nil {
			return "", fmt.Errorf("%w: %q is not a valid international name", ErrBadEntry, s)
		}
		s = a
	}
	s = strings.ToLower(s)
	if s == "" || len(s) > maxNameLen {
		return "", fmt.Errorf("%w: a host name has 1 to %d characters", ErrBadEntry, maxNameLen)
	}
	labels := strings.Split(s, ".")
	for _, l := range labels {
		if !validLabel(l) {
			return "", fmt.Errorf("%w: %q is not a host name", ErrBadEntry, s)
		}
	}
	if last := labels[len(labels)-1]; allDigits(last) || strings.HasPrefix(last, "0x") {
		return "", fmt.Errorf("%w: %q looks like a number, not a host name", ErrBadEntry, s)
	}
	return s, nil
}

// validLabel accepts letters, digits, hyphens and underscores (service
// names use them), 1 to 63 of them, without a hyphen at either end.
func validLabel(l string) bool {
	if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
		return false
	}
	for i := range len(l) {
		c := l[i]
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '-' && c != '_' {
			return false
		}
	}
	return true
}

func allDigits(s string) bool {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
