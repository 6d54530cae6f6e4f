package oauth

import (
	"net/url"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
)

// TestSentResourceLeavesSecretsOut: the resource sent to an authorization
// server (in the sign-in URL the browser shows) has no part of the server
// URL that holds one of the server's secrets.
func TestSentResourceLeavesSecretsOut(t *testing.T) {
	const key = "k3y-5f9a0c2e71"
	withKey := func(u string) model.Server {
		return model.Server{
			Name: "s", Config: model.ServerConfig{Type: model.TransportHTTP, URL: u},
			Expanded: []model.Expansion{{Field: "url", Ref: "${KEY}", Value: key}},
		}
	}
	for _, c := range []struct {
		name, in, want string
		srv            model.Server
		cut            bool
	}{
		{"no secret", "https://mcp.example.com/v1/mcp", "https://mcp.example.com/v1/mcp", withKey("https://mcp.example.com/v1/mcp"), false},
		{"key in the path", "https://mcp.example.com/s/" + key + "/mcp", "https://mcp.example.com/s/", withKey("https://mcp.example.com/s/" + key + "/mcp"), true},
		{"key as the first segment", "https://mcp.example.com/" + key, "https://mcp.example.com/", withKey("https://mcp.example.com/" + key), true},
		{"escaped key in the path", "https://mcp.example.com/s/k3y%2D5f9a0c2e71/mcp", "https://mcp.example.com/s/", withKey("https://mcp.example.com/s/k3y%2D5f9a0c2e71/mcp"), true},
		{"key in the query", "https://mcp.example.com/mcp?key=" + key, "https://mcp.example.com/mcp", withKey("https://mcp.example.com/mcp?key=" + key), true},
		{
			"secret-looking query written literally", "https://mcp.example.com/mcp?api_key=abcdef123456",
			"https://mcp.example.com/mcp",
			model.Server{Config: model.ServerConfig{URL: "https://mcp.example.com/mcp?api_key=abcdef123456"}},
			true,
		},
		{
			"harmless query", "https://mcp.example.com/mcp?region=eu", "https://mcp.example.com/mcp?region=eu",
			model.Server{Config: model.ServerConfig{URL: "https://mcp.example.com/mcp?region=eu"}},
			false,
		},
		{
			"user info", "https://me:pw12345678@mcp.example.com/mcp", "https://mcp.example.com/mcp",
			model.Server{Config: model.ServerConfig{URL: "https://me:pw12345678@mcp.example.com/mcp"}},
			true,
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, cut := sentResource(c.in, c.srv)
			if got != c.want || cut != c.cut {
				t.Errorf("sentResource(%q) = %q, %v; want %q, %v", c.in, got, cut, c.want, c.cut)
			}
		})
	}
}

// TestSignInURLHoldsNoURLKey: signing in to a server whose URL carries a
// key in its path names the resource without it, in the URL shown to the
// person and opened in the browser, and to the authorization server.
func TestSignInURLHoldsNoURLKey(t *testing.T) {
	const key = "k3y-5f9a0c2e71"
	e := newEnv(t, nil)
	e.fake.NoPRM = true // the resource is the server URL itself
	e.fake.Resource = e.fake.rs.URL + "/s/"
	srv := e.server()
	srv.Config.URL = e.fake.rs.URL + "/s/" + key + "/mcp"
	srv.Expanded = []model.Expansion{{Field: "url", Ref: "${KEY}", Value: key}}
	if err := e.authenticate(srv); err != nil {
		t.Fatalf("Authenticate: %v", err)
	}
	if len(e.shown) != 1 || strings.Contains(e.shown[0], key) || strings.Contains(e.shown[0], url.QueryEscape(key)) {
		t.Errorf("the sign-in URL shown: %q", e.shown)
	}
	if got := e.fake.Authorizes[0].Get("resource"); got != e.fake.rs.URL+"/s/" {
		t.Errorf("resource %q, want %q", got, e.fake.rs.URL+"/s/")
	}
}
