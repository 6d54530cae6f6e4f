package doctor

import "testing"

// TestClockURLAsksOverHTTP: a WebSocket server's clock is asked over the
// HTTP its handshake uses, without the URL's credentials or query.
func TestClockURLAsksOverHTTP(t *testing.T) {
	for raw, want := range map[string]string{
		"wss://u:p@h.example/ws?token=1#f": "https://h.example/ws",
		"ws://h.example:8080/ws":           "http://h.example:8080/ws",
		"https://h.example/mcp":            "https://h.example/mcp",
	} {
		u, ok := clockURL(raw)
		if !ok || u.String() != want {
			t.Errorf("clockURL(%q) = %v, %v; want %s", raw, u, ok, want)
		}
	}
}
