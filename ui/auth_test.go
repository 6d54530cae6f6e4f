package ui

import (
	"slices"
	"strings"
	"testing"
)

// TestSignInURLIsUnbrokenAndCopyable: the sign-in panel shows its URL
// under the box, from the first column, so that the screen's lines joined
// give it back exactly, with no border or indent inside (golden); y puts
// exactly the URL on the clipboard; the panel says how to finish on a
// machine without a browser, naming the callback's port.
func TestSignInURLIsUnbrokenAndCopyable(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		f := newFakeEngine(fixture())
		h := newHarness(t, f, 100, 30)
		h.keys("esc")
		u := "https://auth.example.com/authorize?response_type=code&client_id=dyn-0123456789abcdef" +
			"&redirect_uri=http%3A%2F%2F127.0.0.1%3A38123%2Fcallback&state=Zm9vYmFyYmF6cXV4cXV1eA" +
			"&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256" +
			"&resource=https%3A%2F%2Fapi.example.com%2Fmcp&scope=notes.read+notes.write"
		s := fixture()
		s.Servers[7].AuthURL = u
		f.publish(s)
		h.settle()
		v := h.view()
		if !strings.Contains(strings.ReplaceAll(v, "\n", ""), u) {
			t.Fatalf("the URL is not on screen unbroken:\n%s", v)
		}
		for _, l := range strings.Split(v, "\n") {
			if strings.Contains(l, "dyn-0123456789abcdef") && strings.ContainsAny(l, "│ ") {
				t.Errorf("a border or a blank on the URL's line: %q", l)
			}
		}
		flat := strings.Join(strings.Fields(strings.ReplaceAll(v, "│", " ")), " ")
		for _, want := range []string{
			"Sign in to remote-api", "It leads to auth.example.com.", "y copy URL", "No browser on this machine",
			"copy that page's address and run here: curl 'ADDRESS'", "ssh -L 38123:127.0.0.1:38123 THIS-HOST",
		} {
			if !strings.Contains(flat, want) {
				t.Errorf("the panel lacks %q:\n%s", want, v)
			}
		}
		golden(t, "signin", v)

		h.keys("y")
		if !slices.Equal(h.copied, []string{u}) {
			t.Fatalf("copied %q", h.copied)
		}
		h.wantView("copied the URL")
	})
}
