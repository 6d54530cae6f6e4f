package oauth

import (
	"net/http"
	"slices"
	"testing"
)

func TestParseWWWAuthenticate(t *testing.T) {
	for _, tc := range []struct {
		in       []string
		ok       bool
		meta     string
		scopes   []string
		errorStr string
	}{
		{[]string{`Bearer resource_metadata="https://x/.well-known/oauth-protected-resource", scope="a b"`}, true, "https://x/.well-known/oauth-protected-resource", []string{"a", "b"}, ""},
		{[]string{`Basic realm="x", Bearer error="insufficient_scope", scope="files:write"`}, true, "", []string{"files:write"}, "insufficient_scope"},
		{[]string{`Basic realm="x"`, `bearer realm="y",scope=read`}, true, "", []string{"read"}, ""},
		{[]string{`Bearer realm="a \"quoted\" realm", resource_metadata=https://y/m`}, true, "https://y/m", nil, ""},
		{[]string{`Bearer`}, true, "", nil, ""},
		{[]string{`Negotiate abc==`}, false, "", nil, ""},
		{[]string{`Bearer scope="x" Basic realm="r", scope="not-ours"`}, true, "", []string{"x"}, ""},
	} {
		h := http.Header{}
		for _, v := range tc.in {
			h.Add("WWW-Authenticate", v)
		}
		c, ok := parseWWWAuthenticate(h)
		if ok != tc.ok || c.ResourceMetadata != tc.meta || !slices.Equal(c.Scopes, tc.scopes) || c.Error != tc.errorStr {
			t.Errorf("%q: got %+v %v", tc.in, c, ok)
		}
	}
}

func FuzzParseWWWAuthenticate(f *testing.F) {
	for _, s := range []string{
		`Bearer resource_metadata="https://x/m", scope="a b"`,
		`Basic realm="x", Bearer error="insufficient_scope"`,
		`Bearer realm="\"`, `Bearer ,,,=,"`, `Bearer a=b=c`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		h := http.Header{}
		h.Set("WWW-Authenticate", v)
		c, _ := parseWWWAuthenticate(h) // must not panic or loop
		for _, s := range c.Scopes {
			if s == "" {
				t.Fatal("empty scope")
			}
		}
	})
}
