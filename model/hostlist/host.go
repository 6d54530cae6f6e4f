package hostlist

import (
	"fmt"
	"net/netip"
	"strings"

	"golang.org/x/net/idna"
)

// maxNameLen is the longest host name DNS can carry, in ASCII form.
const maxNameLen = 253

// Host is a destination host in its one compared form: an IP address, or
// a lower-case ASCII name without a trailing dot.
type Host struct {
	ip   netip.Addr // valid for an IP literal
	name string     // set for a name
}

// AddrHost is the host of an IP address (IPv4-mapped IPv6 unmapped).
func AddrHost(ip netip.Addr) Host { return Host{ip: ip.Unmap()} }

// IP is the host's address, invalid for a name.
func (h Host) IP() netip.Addr { return h.ip }

// Name is the host's name, "" for an address.
func (h Host) Name() string { return h.name }

// String is the address or the name, as compared.
func (h Host) String() string {
	if h.ip.IsValid() {
		return h.ip.String()
	}
	return h.name
}

// ParseHost normalises a host as a client or an entry writes it: IPv6 may
// be bracketed, a name may carry upper case, one trailing dot and
// non-ASCII letters (converted with IDNA). Zones, empty labels and
// numeric last labels ("127.1", which some resolvers read as 127.0.0.1)
// are refused.
func ParseHost(s string) (Host, error) {
	if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
		s = s[1 : len(s)-1]
		ip, err := netip.ParseAddr(s)
		if err != nil || !ip.Is6() {
			return Host{}, fmt.Errorf("%w: %q is not an IPv6 address", ErrBadEntry, s)
		}
	}
	if ip, err := netip.ParseAddr(s); err == nil {
		if ip.Zone() != "" {
			return Host{}, fmt.Errorf("%w: the address %q has a zone", ErrBadEntry, s)
		}
		return Host{ip: ip.Unmap()}, nil
	}
	name, err := normaliseName(s)
	if err != nil {
		return Host{}, err
	}
	return Host{name: name}, nil
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
