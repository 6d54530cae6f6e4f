package egress

import (
	"fmt"
	"net/netip"

	"github.com/mcpdeck/mcpdeck/model/hostlist"
)

// Rule is the network a sandboxed server may reach: All, or the hosts of
// its list (see the package comment for the forms and how they match).
type Rule struct {
	All   bool
	Hosts []string
}

// matchKind says how a destination name matched the rule; only an exact
// "localhost" entry lets a name reach a loopback address.
type matchKind int

const (
	matchNone matchKind = iota
	matchAll
	matchListed
	matchLocalhost
)

// matcher is a Rule with its entries parsed once.
type matcher struct {
	all     bool
	entries []hostlist.Entry
}

func (r Rule) compile() (matcher, error) {
	m := matcher{all: r.All}
	for _, s := range r.Hosts {
		e, err := hostlist.ParseEntry(s)
		if err != nil {
			return matcher{}, fmt.Errorf("host entry %q: %w", s, err)
		}
		m.entries = append(m.entries, e)
	}
	return m, nil
}

// match decides on the destination as the client named it.
func (m matcher) match(h hostlist.Host, port int) matchKind {
	if port < 1 || port > 65535 {
		return matchNone
	}
	for _, e := range m.entries {
		if !e.Matches(h, port) {
			continue
		}
		if h.Name() == "localhost" && !e.Wildcard() {
			return matchLocalhost
		}
		return matchListed
	}
	if m.all && (h.Name() != "" || public(h.IP())) {
		return matchAll
	}
	return matchNone
}

// allowsAddr decides on an address a name resolved to: public addresses
// follow the name's decision; the others must be listed as IP literals,
// or be loopback reached through an exact "localhost" entry.
func (m matcher) allowsAddr(kind matchKind, ip netip.Addr, port int) bool {
	ip = ip.Unmap()
	if public(ip) {
		return kind != matchNone
	}
	if kind == matchLocalhost && ip.IsLoopback() {
		return true
	}
	for _, e := range m.entries {
		if e.Host().IP().IsValid() && e.Matches(hostlist.AddrHost(ip), port) {
			return true
		}
	}
	return false
}

// public reports whether ip is a global unicast address outside the
// private ranges, the carrier-grade NAT range 100.64.0.0/10 and "this
// network" 0.0.0.0/8; a NAT64 address (64:ff9b::/96) is judged by the
// IPv4 address it carries.
func public(ip netip.Addr) bool {
	ip = ip.Unmap()
	if ip.Is6() {
		b := ip.As16()
		if [12]byte(b[:12]) == [12]byte{0, 0x64, 0xff, 0x9b} {
			return public(netip.AddrFrom4([4]byte(b[12:])))
		}
	}
	if !ip.IsGlobalUnicast() || ip.IsPrivate() {
		return false
	}
	if ip.Is4() {
		b := ip.As4()
		return b[0] != 0 && (b[0] != 100 || b[1]&0xc0 != 64)
	}
	return true
}
