package policy

import "testing"

// TestHTTPSchemeAndDefaultPort: a WebSocket URL counts as the HTTP URL its
// handshake is, in any case; other schemes are themselves, with no port.
func TestHTTPSchemeAndDefaultPort(t *testing.T) {
	for _, tc := range []struct{ scheme, http, port string }{
		{"http", "http", "80"},
		{"https", "https", "443"},
		{"ws", "http", "80"},
		{"wss", "https", "443"},
		{"WSS", "https", "443"},
		{"HTTP", "http", "80"},
		{"ftp", "ftp", ""},
		{"", "", ""},
	} {
		if got := HTTPScheme(tc.scheme); got != tc.http {
			t.Errorf("HTTPScheme(%q) = %q, want %q", tc.scheme, got, tc.http)
		}
		if got := DefaultPort(tc.scheme); got != tc.port {
			t.Errorf("DefaultPort(%q) = %q, want %q", tc.scheme, got, tc.port)
		}
	}
}
