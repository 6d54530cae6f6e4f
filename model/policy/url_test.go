package policy

import (
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
)

// TestURLPatternMatch checks serverUrl rules part by part: every attack
// that dodged a deny or slipped through an allow when the pattern was one
// glob over the whole string, and the legitimate matches beside them.
func TestURLPatternMatch(t *testing.T) {
	for _, tc := range []struct {
		pat, url string
		want     bool
	}{
		// allow https://*.corp.example/*: the host must be under corp.example
		{"https://*.corp.example/*", "https://api.corp.example/mcp", true},
		{"https://*.corp.example/*", "https://a.b.corp.example/mcp", true},
		{"https://*.corp.example/*", "https://api.corp.example", true},
		{"https://*.corp.example/*", "https://corp.example/mcp", false},
		{"https://*.corp.example/*", "https://xcorp.example/mcp", false},
		{"https://*.corp.example/*", "https://attacker.example/x.corp.example/mcp", false},
		{"https://*.corp.example/*", "https://attacker.example/?x=.corp.example/", false},
		{"https://*.corp.example/*", "https://attacker.example/#.corp.example/", false},
		{"https://*.corp.example/*", "https://a.corp.example@attacker.example/mcp", false},
		{"https://*.corp.example/*", "https://a.corp.example:pw@attacker.example/mcp", false},
		{"https://*.corp.example/*", "https://attacker.example\\.corp.example/mcp", false},
		{"https://*.corp.example/*", "https://user:pw@api.corp.example/mcp", true}, // matched on its real host
		{"https://*.corp.example/*", "http://api.corp.example/mcp", false},
		{"https://*.corp.example/*", "https://api.corp.example:8443/mcp", false},
		{"https://*.corp.example/*", "https://api.corp.example.attacker.example/mcp", false},
		// deny https://*.evil.example/*: case, default port, trailing dot, scheme case
		{"https://*.evil.example/*", "https://a.evil.example/mcp", true},
		{"https://*.evil.example/*", "https://a.EVIL.example/mcp", true},
		{"https://*.evil.example/*", "https://a.evil.example:443/mcp", true},
		{"https://*.evil.example/*", "https://a.evil.example:0443/mcp", true},
		{"https://*.evil.example/*", "https://a.evil.example./mcp", true},
		{"https://*.evil.example/*", "https://a.evil.example.:443/mcp", true},
		{"https://*.evil.example/*", "HTTPS://a.evil.example/mcp", true},
		{"https://*.evil.example/*", "https://user:pw@a.evil.example/mcp", true},
		{"HTTPS://*.Evil.Example./*", "https://a.evil.example/mcp", true},
		// explicit default ports on the pattern
		{"https://h.example:443/*", "https://h.example/mcp", true},
		{"http://h.example/*", "http://h.example:80/mcp", true},
		{"ws://h.example/*", "ws://h.example:80/", true},
		{"wss://h.example/*", "wss://h.example:443/", true},
		{"wss://h.example/*", "wss://h.example:80/", false},
		{"http://127.0.0.1:*/*", "http://127.0.0.1:9999/mcp", true},
		{"http://[::1]:8080/*", "http://[::1]:8080/mcp", true},
		// paths: * crosses / inside the path, never into query or fragment
		{"https://h.example/*", "https://h.example/a/b", true},
		{"https://h.example/*", "https://h.example", true},
		{"https://h.example/api/*", "https://h.example/api/v1/mcp", true},
		{"https://h.example/api/*", "https://h.example/other?x=/api/", false},
		{"https://h.example/api/*", "https://h.example/other#/api/", false},
		{"https://h.example/api/*", "https://h.example/api/../admin/mcp", false},
		{"https://h.example/admin/*", "https://h.example/api/../admin/mcp", true},
		{"https://h.example/admin/*", "https://h.example/%61dmin/mcp", true},
		{"https://h.example/mcp", "https://h.example/mcp?api_key=x#f", true},
		{"https://h.example/mcp", "https://h.example/mcp/more", false},
		// a pattern without a path covers every path of that host and port
		{"https://h.example", "https://h.example/any/path", true},
		{"https://h.example", "https://h.example:8443/mcp", false},
		{"*://h.example/*", "wss://h.example/x", true},
		{"*", "https://anything.example/x", true},
	} {
		pat, err := parseURLPattern(tc.pat)
		if err != nil {
			t.Fatalf("parseURLPattern(%q): %v", tc.pat, err)
		}
		u, ok := parseServerURL(tc.url)
		got := ok && pat.match(u)
		if got != tc.want {
			t.Errorf("%q matches %q = %v, want %v (parsed %+v ok=%v)", tc.pat, tc.url, got, tc.want, u, ok)
		}
	}
}

// TestURLPatternRefused checks that a serverUrl rule that could not mean
// what it says is an error (the policy then blocks everything), not a
// guess.
func TestURLPatternRefused(t *testing.T) {
	for _, p := range []string{
		"", "corp.example", "*.corp.example/*", "https://", "https:///x",
		"https://h.example/*?x=*", "https://h.example/#*", "https://u:p@h.example/*",
		"https://h.example:99999/", "https://h.example:x/", "https://h.example:/",
	} {
		if _, err := parseURLPattern(p); err == nil {
			t.Errorf("parseURLPattern(%q) accepted", p)
		}
	}
}

// TestUnparsableURLIsDenied checks that a server URL the matcher cannot
// read satisfies deny rules and no allow rule.
func TestUnparsableURLIsDenied(t *testing.T) {
	for _, raw := range []string{"https://a.corp.example\\@x/", "https://a%2Eevil.example/mcp", "https:opaque", "https://%zz/", "not a url", "https://h.example:/x"} {
		cfg := model.ServerConfig{Type: model.TransportHTTP, URL: raw}
		allow := Rules{allow: []policyRule{{kind: "serverUrl", url: "*", urlPat: urlPattern{any: true}}}}
		deny := Rules{deny: []policyRule{{kind: "serverUrl", url: "https://x.example/*", urlPat: mustURLPattern(t, "https://x.example/*")}}}
		for _, pol := range []Rules{allow, deny} {
			if d := pol.Decide("s", cfg, model.Program{}, false); d.Allowed {
				t.Errorf("%q allowed by %+v", raw, d)
			}
		}
	}
}

func mustURLPattern(t *testing.T, s string) urlPattern {
	t.Helper()
	p, err := parseURLPattern(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// FuzzURLPattern checks the matcher never panics and that a match never
// depends on anything after the path: adding a query or fragment full of
// the pattern's own text does not change the answer, and userinfo never
// turns a non-match into a match.
func FuzzURLPattern(f *testing.F) {
	f.Add("https://*.corp.example/*", "https://attacker.example/x.corp.example/mcp")
	f.Add("https://*.evil.example/*", "HTTPS://a.EVIL.example.:443/x")
	f.Add("*", "ws://[::1]:80/")
	f.Add("http://h:*/a/*", "http://u:p@h:8080/a/../b?q#f")
	f.Fuzz(func(t *testing.T, pat, raw string) {
		p, err := parseURLPattern(pat)
		if err != nil {
			return
		}
		u, ok := parseServerURL(raw)
		if !ok || strings.ContainsAny(raw, "?#@") {
			return
		}
		got := p.match(u)
		for _, extra := range []string{"?" + pat, "#" + pat, "?x=" + pat + "#" + pat} {
			if u2, ok := parseServerURL(raw + extra); ok && p.match(u2) != got {
				t.Fatalf("%q vs %q: %v, but with %q appended: %v", pat, raw, got, extra, !got)
			}
		}
		if i := strings.Index(raw, "://"); i >= 0 && !got {
			withUser := raw[:i+3] + strings.ReplaceAll(pat, "/", "") + "@" + raw[i+3:]
			if u2, ok := parseServerURL(withUser); ok && p.match(u2) {
				t.Fatalf("userinfo made %q match %q", withUser, pat)
			}
		}
	})
}
