package model

import (
	"reflect"
	"strings"
	"testing"
)

func TestExpand(t *testing.T) {
	env := map[string]string{"HOME": "/home/me", "EMPTY": "", "TOKEN": "s3cret"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	for _, tc := range []struct {
		in      string
		want    string
		missing []string
	}{
		{"plain", "plain", nil},
		{"${HOME}/bin", "/home/me/bin", nil},
		{"Bearer ${TOKEN}", "Bearer s3cret", nil},
		{"${NOPE:-fallback}", "fallback", nil},
		{"${EMPTY:-fallback}", "fallback", nil},
		{"${EMPTY}", "", nil},
		{"${HOME:-x}", "/home/me", nil},
		{"${NOPE:-}", "", nil},
		{"${NOPE}", "", []string{"${NOPE}"}},
		{"a${NOPE}b${ALSO}c", "abc", []string{"${NOPE}", "${ALSO}"}},
		{"$$", "$$", nil},
		{"$${HOME}", "$${HOME}", nil},
		{"cost: $5", "cost: $5", nil},
		{"trailing $", "trailing $", nil},
		{"$HOME", "$HOME", nil},
		{"${unclosed", "${unclosed", nil},
		{"${1BAD}", "${1BAD}", nil},
		{"${}", "${}", nil},
		{"${A-B}", "${A-B}", nil},
		{"${NOPE:-a:-b}", "a:-b", nil},
		{"${HOME}${HOME}", "/home/me/home/me", nil},
		{"é${HOME}é", "é/home/meé", nil},
	} {
		got, missing := Expand(tc.in, lookup)
		if got != tc.want || !reflect.DeepEqual(missing, tc.missing) {
			t.Errorf("Expand(%q) = %q %v, want %q %v", tc.in, got, missing, tc.want, tc.missing)
		}
	}
}

func TestExpandConfigEveryField(t *testing.T) {
	env := map[string]string{"V": "x"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	in := ServerConfig{
		Type: TransportHTTP, Command: "${V}", Args: []string{"${V}", "${MISSING_ARG}"},
		Env: map[string]string{"K": "${V}"}, Cwd: "${V}", URL: "https://${V}/mcp",
		Headers:       map[string]string{"Authorization": "Bearer ${API_TOKEN}"},
		HeadersHelper: "${V}.sh", Name: "${V}", ProtocolVersion: "${V}",
		OAuth: &OAuthConfig{
			ClientID: "${V}", AuthServerMetadataURL: "${V}", ClientMetadataURL: "${V}",
			Grant: "${V}", Scopes: []string{"${V}"},
		},
	}
	out, put, probs := in.Expand(lookup, nil, "")
	want := ServerConfig{
		Type: TransportHTTP, Command: "x", Args: []string{"x", ""},
		Env: map[string]string{"K": "x"}, Cwd: "x", URL: "https://x/mcp",
		Headers:       map[string]string{"Authorization": "Bearer "},
		HeadersHelper: "x.sh", Name: "x", ProtocolVersion: "x",
		OAuth: &OAuthConfig{ClientID: "x", AuthServerMetadataURL: "x", ClientMetadataURL: "x", Grant: "x", Scopes: []string{"x"}},
	}
	if !reflect.DeepEqual(out, want) {
		t.Errorf("expanded = %+v\nwant %+v", out, want)
	}
	wantProbs := []Problem{
		{Field: "args[1]", Message: "${MISSING_ARG} is not set"},
		{Field: "headers.Authorization", Message: "${API_TOKEN} is not set"},
	}
	if !reflect.DeepEqual(probs, wantProbs) {
		t.Errorf("problems = %v, want %v", probs, wantProbs)
	}
	if in.OAuth.ClientID != "${V}" || in.Args[0] != "${V}" {
		t.Error("Expand modified its input")
	}
	var fields []string
	for _, x := range put {
		if x.Ref != "${V}" || x.Value != "x" {
			t.Errorf("expansion %+v", x)
		}
		fields = append(fields, x.Field)
	}
	wantFields := "command args[0] env.K cwd url headersHelper name protocolVersion oauth.clientId oauth.authServerMetadataUrl oauth.clientMetadataUrl oauth.grant oauth.scopes[0]"
	if got := strings.Join(fields, " "); got != wantFields {
		t.Errorf("expansions in %s\nwant %s", got, wantFields)
	}
}

// TestExpandNeverGivesOwnCredentials: a definition (a repository's .mcp.json
// as much as any) that names mcpdeck's serve token or client secret in env,
// a header or an argument gets nothing, and a problem says why.
func TestExpandNeverGivesOwnCredentials(t *testing.T) {
	env := map[string]string{"MCPDECK_SERVE_TOKEN": "serve-token-value", "MCPDECK_CLIENT_SECRET": "client-secret-value"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	in := ServerConfig{
		Command: "srv", Args: []string{"--t=${MCPDECK_SERVE_TOKEN}"},
		Env:     map[string]string{"T": "${MCPDECK_SERVE_TOKEN}"},
		Headers: map[string]string{"Authorization": "Bearer ${MCPDECK_CLIENT_SECRET:-x}"},
	}
	out, put, probs := in.Expand(lookup, nil, "")
	if out.Env["T"] != "" || out.Args[0] != "--t=" || out.Headers["Authorization"] != "Bearer x" || len(put) != 0 {
		t.Errorf("expanded = %+v, put %v", out, put)
	}
	if len(probs) != 3 || !strings.Contains(probs[0].Message, "credential of mcpdeck's own") {
		t.Errorf("problems = %v", probs)
	}
}
