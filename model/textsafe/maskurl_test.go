package textsafe

import (
	"testing"
)

func TestRedactURL(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"":                        "",
		"https://example.com/mcp": "https://example.com/mcp",
		"https://example.com/mcp?transport=sse&v=2":            "https://example.com/mcp?transport=sse&v=2",
		"https://x.example/mcp?api_key=sk-live-123&profile=me": "https://x.example/mcp?api_key=****&profile=me",
		"https://x.example/mcp?token=${TOKEN}":                 "https://x.example/mcp?token=${TOKEN}",
		"https://x.example/mcp?accessToken=abc#frag":           "https://x.example/mcp?accessToken=****#frag",
		"https://x.example/mcp?token=abc#":                     "https://x.example/mcp?token=****#",
		"https://bob:hunter2@x.example/mcp":                    "https://bob:****@x.example/mcp",
		"https://bob:${PW}@x.example/mcp":                      "https://bob:${PW}@x.example/mcp",
		"https://ghp_abc123@github.example/mcp":                "https://****@github.example/mcp",
		"https://${GH_TOKEN}@github.example/mcp":               "https://${GH_TOKEN}@github.example/mcp",
		"wss://x.example/ws?Authorization=Bearer%20abc":        "wss://x.example/ws?Authorization=****",
		"wss://x@host/p?apikey=1":                              "wss://****@host/p?apikey=****",
		"https://user:pw@example.com/mcp?api_key=k&x=1":        "https://user:****@example.com/mcp?api_key=****&x=1",
		"https://e.example/mcp?sig=abc&key=k&bearer=b&q=":      "https://e.example/mcp?sig=****&key=****&bearer=****&q=",
		"not a url ?token=t":                                   "not a url ?token=****",
	} {
		if got := redactURL(in); got != want {
			t.Errorf("redactURL(%q) = %q, want %q", in, got, want)
		}
	}
}
