// Package hostlist is the grammar of a sandbox's network list, in one
// home for the definition's check (model) and the proxy that enforces it
// (transports/egress), so a list the check accepts is the list the proxy
// reads.
//
// An entry is an exact host name ("api.example.com"), an IP literal
// ("127.0.0.1", "::1", "[::1]:8080") or a wildcard "*.example.com", each
// with an optional ":port" (without one, every port). A wildcard matches
// every name below its base and never the base itself. Names compare
// case-insensitively, without a trailing dot, in their IDNA ASCII form;
// a name whose last label is numeric ("127.1") or starts with "0x" is
// not a name, since some resolvers read it as an address. Pure: no I/O.
package hostlist

import "errors"

// ErrBadEntry is the error of a host entry that is not a host name, an
// IP literal or a "*.name" wildcard with an optional valid port.
var ErrBadEntry = errors.New("not a host entry")
