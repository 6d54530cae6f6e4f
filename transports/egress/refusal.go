package egress

import (
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"time"
)

// Refusal is one connection the rule refused: the host as the client
// named it (normalised when it parses, so an IP literal or an ASCII
// name), the port, when, and why in words. Allow is the host-list entry
// that would let this connection through ("api.example.com:443", or the
// address "127.0.0.1:8080" when a listed name resolved to an address that
// must be listed itself), empty when no entry would (a malformed host or
// port). Host comes from the sandboxed program: pass it through the
// sanitizer before a terminal.
type Refusal struct {
	Host   string
	Port   int
	At     time.Time
	Reason string
	Allow  string
}

// The reasons a Refusal gives.
const (
	reasonNotListed   = "the host is not in the sandbox's list"
	reasonIPNotListed = "the address is not in the sandbox's list"
	reasonBadHost     = "the host is not a valid host name or address"
	reasonBadPort     = "the port is not a number from 1 to 65535"
)

// reasonAddr is the refusal of a listed name that resolved only to
// addresses the rule does not reach (loopback or private, not listed).
func reasonAddr(ip netip.Addr) string {
	return fmt.Sprintf("the host resolves to %s, which is not public and not in the sandbox's list", ip)
}

// refusedError is a refusal as an error: Is ErrRefused, says host, port
// and reason.
type refusedError struct{ r Refusal }

func (e *refusedError) Error() string {
	return fmt.Sprintf("connection to %s refused: %s", net.JoinHostPort(e.r.Host, strconv.Itoa(e.r.Port)), e.r.Reason)
}

func (e *refusedError) Unwrap() error { return ErrRefused }
