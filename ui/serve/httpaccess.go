package serve

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"

	"github.com/mcpdeck/mcpdeck/model/policy"
)

// ErrNotLoopback refuses a --http address other machines could reach when
// --listen did not allow it.
var ErrNotLoopback = errors.New("is not a loopback address")

// CheckAddr checks a --http address (HOST:PORT) and returns its host: a
// loopback address always passes, any other only when remote (--listen)
// allows it.
func CheckAddr(addr string, remote bool) (string, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("--http %q: want HOST:PORT, such as 127.0.0.1:8765 (%w)", addr, err)
	}
	if policy.IsLoopbackHost(host) || remote {
		return host, nil
	}
	return "", fmt.Errorf("--http %s %w: other machines could reach it; bind 127.0.0.1, or pass --listen to allow it", addr, ErrNotLoopback)
}

// hostAllowed is the DNS-rebinding check on a request's Host header (or
// Origin's host): a loopback name or address always passes; with --listen,
// also the --http host itself and any IP literal (a rebinding attack needs
// a name of its own, never an IP).
func (h HTTPOptions) hostAllowed(hostport string) bool {
	host := hostport
	if hh, _, err := net.SplitHostPort(hostport); err == nil {
		host = hh
	}
	host = strings.Trim(host, "[]")
	if policy.IsLoopbackHost(host) {
		return true
	}
	if !h.Remote {
		return false
	}
	if strings.EqualFold(host, strings.Trim(h.Host, "[]")) {
		return true
	}
	_, err := netip.ParseAddr(host)
	return err == nil
}

// originAllowed checks an Origin header: absent (not a browser) passes; a
// browser page passes only from an allowed host over http or https.
func (h HTTPOptions) originAllowed(origin string) bool {
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return false
	}
	return h.hostAllowed(u.Host)
}
