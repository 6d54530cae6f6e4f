package textsafe_test

import (
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// TestMaskerMasksErrorText checks that free text (an error message) loses
// the secrets a URL, an echoed Authorization header or a configured value
// put into it, and keeps the rest readable.
func TestMaskerMasksErrorText(t *testing.T) {
	cfg := model.ServerConfig{
		Type:    model.TransportHTTP,
		URL:     "http://user:pw-SECRET0@127.0.0.1:1/mcp?api_key=SECRET1&access_token=SECRET2&region=eu",
		Headers: map[string]string{"Authorization": "Bearer SECRET3-tok", "X-Other": "Basic dXNlcjpTRUNSRVQ0LXB3"},
		Env:     map[string]string{"API_KEY": "SECRET5-env", "DEBUG": "1"},
		Args:    []string{"--token", "SECRET6-arg", "--password=SECRET7-arg", "plain"},
	}
	m := textsafe.NewMasker(model.Server{Config: cfg}.Secrets()...)
	for _, tc := range []struct{ in, want string }{
		{
			`Post "http://user:pw-SECRET0@127.0.0.1:1/mcp?api_key=SECRET1&access_token=SECRET2&region=eu": dial tcp 127.0.0.1:1: connect: connection refused`,
			`Post "http://user:****@127.0.0.1:1/mcp?api_key=****&access_token=****&region=eu": dial tcp 127.0.0.1:1: connect: connection refused`,
		},
		{
			"GET https://h.example/x?token=abc123. Then it failed",
			"GET https://h.example/x?token=****. Then it failed",
		},
		{"server said: invalid credentials Bearer SECRET3-tok", "server said: invalid credentials ****"},
		{"server said: invalid token SECRET3-tok", "server said: invalid token ****"},
		{"unknown bearer eyJhbGciOi.J9x", "unknown bearer ****"},
		{"the server wants a bearer credential", "the server wants a bearer credential"},
		{"user SECRET4-pw refused; env SECRET5-env; arg SECRET6-arg SECRET7-arg", "user **** refused; env ****; arg **** ****"},
		{"debug level 1 in region eu", "debug level 1 in region eu"},
		{"wss://tok-only@h.example/ws closed", "wss://****@h.example/ws closed"},
	} {
		if got := m.Mask(tc.in); got != tc.want {
			t.Errorf("Mask(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
	if m.Mask("") != "" || (*textsafe.Masker)(nil).Mask("Bearer abc.def-123456") != "Bearer ****" {
		t.Error("empty text changed, or a nil Masker does not mask the patterns")
	}
}
