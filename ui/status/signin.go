package status

import (
	"net"
	"net/url"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// SignInElsewhere says how to finish a sign-in on a machine without a
// browser (over SSH): open the URL on a machine that has one; its last
// page is mcpdeck's loopback callback, which cannot load there, so its
// address is brought back here with curl (or the port forwarded first).
// The TUI's sign-in panel and `mcpdeck auth` both say it.
func SignInElsewhere(authURL string) string {
	const first = "No browser on this machine (over SSH)? Open the URL on one that has a browser and sign in there."
	u, err := url.Parse(authURL)
	if err != nil {
		return first
	}
	cb, err := url.Parse(u.Query().Get("redirect_uri"))
	if err != nil || cb.Scheme != "http" || cb.Port() == "" {
		return first
	}
	if ip := net.ParseIP(cb.Hostname()); (ip == nil || !ip.IsLoopback()) && cb.Hostname() != "localhost" {
		return first
	}
	at, port := textsafe.SanitizeLine(cb.Host), textsafe.SanitizeLine(cb.Port())
	return first + " Its last page, at " + at + ", will not load there: copy that page's address and run here: curl 'ADDRESS'." +
		" (Or forward the port first, from that machine: ssh -L " + port + ":" + at + " THIS-HOST.)"
}
