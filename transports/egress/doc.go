// Package egress is the network gate of a sandboxed server: a small
// loopback proxy that lets a server reach only the hosts its definition
// lists, decided by the host name the server asked for.
//
// The rule. A Rule is either All or a list of entries, read by
// model/hostlist, the grammar's one home. An entry is an exact host name
// ("api.example.com"), an IP literal ("127.0.0.1", "::1", "[::1]:8080")
// or a wildcard "*.example.com", each with an optional ":port" (without
// one, every port is allowed). A wildcard
// matches every name below its base ("a.example.com", "a.b.example.com")
// and never the base itself: list "example.com" as well to allow it.
// Names are compared case-insensitively, without a trailing dot, and in
// their IDNA ASCII form, so "Bücher.example." and "xn--bcher-kva.example"
// are the same host. A name whose last label is numeric ("127.1") or
// that starts with "0x" is not a name: it is refused, never resolved.
//
// The proxy decides on the name first, and asks no DNS server about a
// refused name. It then resolves the name itself and dials the address it
// got, so the check and the connection see the same address. Addresses
// that are not public (loopback, private, link-local, unspecified,
// multicast, shared address space) are reached only when listed as an IP
// literal, or for the exact entry "localhost", which the proxy resolves
// to 127.0.0.1 and ::1 without asking DNS. So a listed name that resolves
// to 127.0.0.1 is refused, and All reaches every public address but no
// private one. An IP-literal destination is allowed only when listed, or
// under All when public.
//
// The proxy speaks HTTP CONNECT (HTTPS and any TCP), plain HTTP forward
// proxying of absolute-URI requests ("GET http://host/path") and SOCKS5
// CONNECT without authentication (domain, IPv4 and IPv6 addresses), on a
// 127.0.0.1 TCP listener and, when Options.SocketDir is set, on a unix
// socket for a sandbox whose network namespace has only its own loopback.
// The first byte tells them apart: 0x05 is SOCKS5, anything else HTTP.
//
// Every refusal calls Options.OnRefuse with the host, port, time and a
// reason, and answers the client in its protocol: 403 for HTTP, reply
// code 0x02 for SOCKS5. Everything is bounded: the request header size,
// the number of connections, the time a handshake may take and the time
// a tunnel may stay idle (Limits). Errors and answers carry host names and
// network errors only, never request bodies.
//
// The shim (ShimArg, RunShim) runs inside such a namespace: it listens on
// the namespace's loopback, forwards every connection to the proxy's unix
// socket, points the server at itself with HTTP_PROXY, HTTPS_PROXY and
// ALL_PROXY (Env) and runs the server as its child.
//
// Beyond Rule, Refusal, Options, Start, Proxy, ShimArg and RunShim, the
// package offers Refusal.Allow (the entry a person can add to allow what
// was refused), Options.Resolve (fixed answers for tests), Options.Limits
// with DefaultLimits, Env (the proxy variables, for a sandbox that
// reaches Proxy.Addr directly, as on macOS) and the sentinels ErrBadEntry,
// ErrRefused, ErrSocketDir and ErrClosed. A definition's list is checked
// before it runs with hostlist.ParseEntry, the parser the proxy uses.
package egress
