package doctor

import "testing"

// TestClockURLAsksOverHTTP: a server's clock is asked at its origin over
// the HTTP a WebSocket handshake uses, without the URL's credentials, path
// or query (a path may hold a key).
func TestClockURLAsksOverHTTP(t *testing.T) {
	for raw, want := range map[string]string{
		"wss://u:p@h.example/ws?token=1#f": "https://h.example/",
		"ws://h.example:8080/ws":           "http://h.example:8080/",
		"https://h.example/mcp":            "https://h.example/",
	} {
		u, ok := clockURL(raw)
		if !ok || u.String() != want {
			t.Errorf("clockURL(%q) = %v, %v; want %s", raw, u, ok, want)
		}
	}
}
