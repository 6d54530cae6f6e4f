package platform

import (
	"os"
	"slices"
	"testing"
)

// TestBrowserCommand checks the one $BROWSER rule: the first entry, split
// into words, %s replaced by the URL or the URL appended; the platform
// opener when $BROWSER is empty.
func TestBrowserCommand(t *testing.T) {
	const u = "https://as.example/authorize?a=b&c=d"
	sep := "x" + string(os.PathListSeparator) + "y"
	for _, tc := range []struct {
		browser string
		want    []string
	}{
		{"firefox", []string{"firefox", u}},
		{"  firefox --new-window  ", []string{"firefox", "--new-window", u}},
		{"open -a Safari %s --background", []string{"open", "-a", "Safari", u, "--background"}},
		{sep, []string{"x", u}},
		{"", append(platformOpener(), u)},
		{"   ", append(platformOpener(), u)},
	} {
		if got := BrowserCommand(u, tc.browser); !slices.Equal(got, tc.want) {
			t.Errorf("BROWSER=%q: %q, want %q", tc.browser, got, tc.want)
		}
	}
}
