package policy

import (
	"net"
	"strings"
)

// IsLoopbackHost reports whether host (a name or IP address without port;
// IPv6 brackets allowed) is this machine only: localhost in any letter
// case, with or without a final dot, or a loopback address (127.0.0.0/8,
// ::1). Plain http is allowed to such a host alone (OAuth endpoints, MCP
// bundle downloads), and mcpdeck serve binds and answers it without
// --listen.
func IsLoopbackHost(host string) bool {
	h := strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}
