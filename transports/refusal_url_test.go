package transports

import "testing"

func TestRedactedURLDropsCredentials(t *testing.T) {
	if got := redactedURL("https://user:pw@h.example/mcp?api_key=s3cret#frag"); got != "https://h.example/mcp" {
		t.Errorf("redactedURL = %q", got)
	}
}
