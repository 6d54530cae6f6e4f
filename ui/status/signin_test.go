package status

import (
	"strings"
	"testing"
)

// TestSignInElsewhere: a sign-in whose callback is on this machine's
// loopback says how to bring the callback back (curl, or an SSH
// forward of its port); any other, or a URL that does not parse, says
// only to open it where there is a browser.
func TestSignInElsewhere(t *testing.T) {
	for _, c := range []struct{ url, want, not string }{
		{"https://as.example/authorize?redirect_uri=http%3A%2F%2F127.0.0.1%3A38123%2Fcallback", "ssh -L 38123:127.0.0.1:38123 THIS-HOST", ""},
		{"https://as.example/authorize?redirect_uri=http%3A%2F%2Flocalhost%3A8080%2Fcb", "at localhost:8080, will not load there", ""},
		{"https://as.example/authorize?redirect_uri=https%3A%2F%2Fapp.example%2Fcb", "Open the URL on one that has a browser", "curl"},
		{"https://as.example/authorize", "Open the URL on one that has a browser", "curl"},
		{"%zz", "Open the URL on one that has a browser", "curl"},
	} {
		got := SignInElsewhere(c.url)
		if !strings.Contains(got, c.want) || (c.not != "" && strings.Contains(got, c.not)) {
			t.Errorf("%s:\n%s", c.url, got)
		}
	}
}
