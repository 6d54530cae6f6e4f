package policy

import "strings"

// HTTPScheme is the scheme a URL of scheme travels over, in lower case: a
// WebSocket handshake is an HTTP request, so ws is http and wss is https;
// any other scheme is itself. A token for https://h is one for wss://h, a
// ws server's clock is read over http, and their ports are the same.
func HTTPScheme(scheme string) string {
	switch scheme = strings.ToLower(scheme); scheme {
	case "ws":
		return "http"
	case "wss":
		return "https"
	default:
		return scheme
	}
}

// DefaultPort is the port a URL of scheme uses when it names none: 80 for
// http and ws, 443 for https and wss, "" for any other scheme.
func DefaultPort(scheme string) string {
	switch HTTPScheme(scheme) {
	case "http":
		return "80"
	case "https":
		return "443"
	}
	return ""
}
