package policy

import (
	"testing"
)

// TestIsLoopbackHost: localhost and loopback addresses in their spellings
// are this machine; other hosts, names that only start with localhost and
// unparsable text are not.
func TestIsLoopbackHost(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "LOCALHOST": true, "localhost.": true, "127.0.0.1": true, "127.8.9.10": true,
		"::1": true, "[::1]": true, "::ffff:127.0.0.1": true,
		"": false, "localhost.evil.example": false, "evil-localhost": false, "10.0.0.1": false,
		"0.0.0.0": false, "::": false, "example.com": false, "127.0.0.1:80": false,
	} {
		if got := IsLoopbackHost(host); got != want {
			t.Errorf("IsLoopbackHost(%q) = %v, want %v", host, got, want)
		}
	}
}
