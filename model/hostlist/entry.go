package hostlist

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"
)

// Entry is one parsed item of a host list.
type Entry struct {
	host     Host
	wildcard bool // "*.name": every name strictly below name
	port     int  // 0: every port
}

// NewEntry is the entry that allows exactly h on port (0: every port).
func NewEntry(h Host, port int) Entry { return Entry{host: h, port: port} }

// Host is the entry's host; for a wildcard, the base below which it
// matches.
func (e Entry) Host() Host { return e.host }

// Port is the entry's port, 0 for every port.
func (e Entry) Port() int { return e.port }

// Wildcard reports whether the entry is "*.name".
func (e Entry) Wildcard() bool { return e.wildcard }

// ParseEntry reads one host-list item: "name", "*.name", an IP literal
// ("10.0.0.1", "::1", "[::1]"), each with an optional ":port". Surrounding
// spaces are ignored; anything else that is not one of these forms is
// ErrBadEntry, so a typo never widens the list.
func ParseEntry(s string) (Entry, error) {
	s = strings.TrimSpace(s)
	hostPart, port, err := splitEntryPort(s)
	if err != nil {
		return Entry{}, err
	}
	var e Entry
	e.port = port
	if rest, ok := strings.CutPrefix(hostPart, "*."); ok {
		e.wildcard = true
		hostPart = rest
	}
	h, err := ParseHost(hostPart)
	if err != nil {
		return Entry{}, err
	}
	if e.wildcard && h.ip.IsValid() {
		return Entry{}, fmt.Errorf("%w: a wildcard needs a name after \"*.\", not an address", ErrBadEntry)
	}
	e.host = h
	return e, nil
}

// splitEntryPort separates an optional ":port" from an entry; a bare IPv6
// address keeps its colons.
func splitEntryPort(s string) (string, int, error) {
	if _, err := netip.ParseAddr(s); err == nil {
		return s, 0, nil
	}
	if strings.HasPrefix(s, "[") {
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return "", 0, fmt.Errorf("%w: %q misses its closing bracket", ErrBadEntry, s)
		}
		rest := s[end+1:]
		if rest == "" {
			return s, 0, nil
		}
		if rest[0] != ':' {
			return "", 0, fmt.Errorf("%w: %q has text after the address", ErrBadEntry, s)
		}
		port, err := ParsePort(rest[1:])
		return s[:end+1], port, err
	}
	h, p, found := strings.Cut(s, ":")
	if !found {
		return s, 0, nil
	}
	port, err := ParsePort(p)
	return h, port, err
}

// ParsePort reads a decimal port from 1 to 65535, digits only.
func ParsePort(p string) (int, error) {
	if !allDigits(p) || len(p) > 5 {
		return 0, fmt.Errorf("%w: %q is not a port", ErrBadEntry, p)
	}
	n, err := strconv.Atoi(p)
	if err != nil || n < 1 || n > 65535 {
		return 0, fmt.Errorf("%w: %q is not a port from 1 to 65535", ErrBadEntry, p)
	}
	return n, nil
}

// String is the entry in its normalised form; ParseEntry reads it back to
// the same entry.
func (e Entry) String() string {
	s := e.host.String()
	if e.wildcard {
		s = "*." + s
	}
	if e.port == 0 {
		return s
	}
	if e.host.ip.Is6() {
		s = "[" + s + "]"
	}
	return s + ":" + strconv.Itoa(e.port)
}

// Matches reports whether the entry covers h on port.
func (e Entry) Matches(h Host, port int) bool {
	if e.port != 0 && e.port != port {
		return false
	}
	if e.host.ip.IsValid() {
		return h.ip == e.host.ip
	}
	if h.name == "" {
		return false
	}
	if e.wildcard {
		return strings.HasSuffix(h.name, "."+e.host.name)
	}
	return h.name == e.host.name
}
