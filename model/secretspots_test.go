package model

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

func TestRedact(t *testing.T) {
	t.Parallel()
	cfg := ServerConfig{
		Command: "srv", Args: []string{"--token", "abc", "--api-key=xyz", "--gh=${GH}", "plain"},
		Env:     map[string]string{"K": "secret", "GH": "${GITHUB_TOKEN}", "E": ""},
		Headers: map[string]string{"Authorization": "Bearer x", "X-Ref": "Bearer ${API_TOKEN}"},
		URL:     "https://user:pw@example.com/mcp?api_key=k&x=1",
		OAuth: &OAuthConfig{ClientID: "cid", Scopes: []string{"read"}, Extra: map[string]json.RawMessage{
			"clientSecret": json.RawMessage(`"oauth-extra-secret"`),
		}},
		Extra: map[string]json.RawMessage{"futureField": json.RawMessage(`"extra-secret"`)},
	}
	m := Redact(cfg)
	all, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"abc", "xyz", "secret", "Bearer x", "pw@", "=k"} {
		if strings.Contains(string(all), secret) {
			t.Errorf("redacted config still shows %q: %s", secret, all)
		}
	}
	for _, ref := range []string{"${GITHUB_TOKEN}", "Bearer ${API_TOKEN}", "--gh=${GH}", "x=1", "plain"} {
		if !strings.Contains(string(all), ref) {
			t.Errorf("redacted config lost %q: %s", ref, all)
		}
	}
	if m.Extra != nil || m.OAuth == nil || m.OAuth.Extra != nil || m.OAuth.ClientID != "cid" || m.OAuth.Scopes[0] != "read" {
		t.Errorf("extra/oauth = %v %+v", m.Extra, m.OAuth)
	}
	if m.Env["E"] != "" || m.Command != "srv" {
		t.Errorf("redacted = %+v", m)
	}
	if cfg.Env["K"] != "secret" || cfg.Args[1] != "abc" || cfg.Headers["Authorization"] != "Bearer x" ||
		cfg.Extra == nil || cfg.OAuth.Extra == nil || !strings.Contains(cfg.URL, "pw") {
		t.Error("Redact modified its input")
	}
	m.OAuth.Scopes[0] = "changed"
	if cfg.OAuth.Scopes[0] != "read" {
		t.Error("Redact shares the OAuth scopes with its input")
	}
	if got := RedactTarget(m); got != "srv --token '****' '--api-key=****' '--gh=${GH}' plain" {
		t.Errorf("target = %q", got)
	}
}

func TestRedactTarget(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cfg  ServerConfig
		want string
	}{
		{ServerConfig{Command: "npx"}, "npx"},
		{ServerConfig{Type: TransportStdio, Command: "npx", Args: []string{"-y", "x"}}, "npx -y x"},
		// each word shown as the shell would need it, so the words read back
		{ServerConfig{Command: "sh", Args: []string{"-c", "echo 'hi there' | cat"}}, `sh -c 'echo '\''hi there'\'' | cat'`},
		{ServerConfig{Command: "/opt/my tools/srv", Args: []string{"", "a\x1bb"}}, `'/opt/my tools/srv' '' $'a\x1bb'`},
		{ServerConfig{Type: TransportSDK, Name: "everything"}, "built-in everything"},
		{ServerConfig{Type: TransportHTTP, URL: "https://e.example/mcp"}, "https://e.example/mcp"},
		{ServerConfig{Type: TransportSSE, URL: "https://e.example/sse"}, "https://e.example/sse"},
		{ServerConfig{Type: TransportWS, URL: "wss://e.example/ws"}, "wss://e.example/ws"},
		{ServerConfig{Type: "carrier-pigeon", URL: "coo://roof"}, "coo://roof"},
	} {
		if got := RedactTarget(Redact(tc.cfg)); got != tc.want {
			t.Errorf("RedactTarget(%+v) = %q, want %q", tc.cfg, got, tc.want)
		}
	}
}

// FuzzRedact checks that a literal secret never survives redaction in env,
// headers, secret-looking flags or URL credentials, that ${VAR}-only values
// stay visible, and that redaction is idempotent.
func FuzzRedact(f *testing.F) {
	f.Add("TOKEN", "s3cret-value", "--api-key=abc123", "https://u:p4ss@example.com/x?token=zzz")
	f.Add("GH", "${GITHUB_TOKEN}", "${KEY}", "https://${U}@e.example/?k=${K}#x")
	f.Fuzz(func(t *testing.T, key, value, arg, rawURL string) {
		cfg := ServerConfig{
			Command: "c", Args: []string{arg, "--api-key=" + arg, "--token", arg},
			Env: map[string]string{key: value}, Headers: map[string]string{key: value}, URL: rawURL,
		}
		m := Redact(cfg)
		if want := textsafe.MaskWritten(value); m.Env[key] != want || m.Headers[key] != want {
			t.Fatalf("value %q: env %q headers %q, want %q", value, m.Env[key], m.Headers[key], want)
		}
		literal := func(s string) bool { return s != "" && !strings.Contains(s, "${") }
		if literal(value) && m.Env[key] != textsafe.Masked {
			t.Fatalf("literal value kept: %q", m.Env[key])
		}
		if strings.HasPrefix(value, "${") && strings.Join(textsafe.VarRefs(value), "") == value && m.Env[key] != value {
			t.Fatalf("${VAR}-only value hidden: %q", value)
		}
		if literal(arg) {
			if m.Args[1] != "--api-key="+textsafe.Masked {
				t.Fatalf("--api-key=%q shown as %q", arg, m.Args[1])
			}
			if !strings.HasPrefix(arg, "-") && m.Args[3] != textsafe.Masked {
				t.Fatalf("--token %q shown as %q", arg, m.Args[3])
			}
		}
		if literal(value) && !strings.ContainsAny(value, "/?#@&=:\\") {
			u := textsafe.ReplaceURLSecrets("https://u:"+value+"@h.example/p?token="+value+"&x=1#f", textsafe.MaskWritten)
			if u != "https://u:****@h.example/p?token=****&x=1#f" {
				t.Fatalf("URL credentials %q shown: %s", value, u)
			}
			if u := textsafe.ReplaceURLSecrets("https://"+value+"@h.example/", textsafe.MaskWritten); u != "https://****@h.example/" {
				t.Fatalf("URL user %q shown: %s", value, u)
			}
		}
		if again := Redact(m); !reflect.DeepEqual(again, m) {
			t.Fatalf("not idempotent:\n%+v\n%+v", m, again)
		}
	})
}

func TestRedactArgs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want []string }{
		{nil, nil},
		{[]string{"-y", "pkg", "plain"}, []string{"-y", "pkg", "plain"}},
		{[]string{"--token", "abc", "--api-key=xyz", "plain"}, []string{"--token", textsafe.Masked, "--api-key=" + textsafe.Masked, "plain"}},
		{[]string{"--token", "${TOKEN}", "--api-key=${KEY}"}, []string{"--token", "${TOKEN}", "--api-key=${KEY}"}},
		{[]string{"--password", "--verbose", "x"}, []string{"--password", "--verbose", "x"}},
		{[]string{"--client-secret=", "--Authorization=Bearer x"}, []string{"--client-secret=", "--Authorization=" + textsafe.Masked}},
		{[]string{"--auth", "Bearer ${T}"}, []string{"--auth", "Bearer ${T}"}},
		{[]string{"--name=value", "--key-file", "/k.pem"}, []string{"--name=value", "--key-file", "/k.pem"}},
	} {
		if got := Redact(ServerConfig{Args: tc.in}).Args; !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Redact(args %q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
