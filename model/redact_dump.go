package model

import (
	"bytes"
	"encoding/json"
	"strings"
)

// credentialName reports whether a JSON member or key=value name holds a
// credential: access_token, refreshToken, client_secret, password,
// api_key, Authorization, Cookie… — but not a progressToken, which MCP
// uses to match progress notifications to their request.
func credentialName(name string) bool {
	n := strings.ToLower(name)
	if n == "progresstoken" {
		return false
	}
	if strings.HasSuffix(n, "token") {
		return true
	}
	for _, w := range []string{"secret", "password", "passwd", "apikey", "api_key", "api-key", "authorization", "credential", "privatekey", "private_key", "cookie"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// Masker masks the secrets a block of text may hold before it goes where
// other people read it (a traffic frame's body, a server's stderr, a
// support bundle). It is built once for a set of secret values and used
// for many texts.
type Masker struct {
	secrets []string // as given and as JSON escapes them, longest first
}

// NewMasker returns a Masker for secrets (the values SecretValues lists,
// stored tokens…).
func NewMasker(secrets ...string) *Masker {
	return &Masker{secrets: longestFirst(withJSONForms(secrets))}
}

// Dump returns s with masked what RedactText masks (URL credentials,
// Bearer/Basic credentials, JSON Web Tokens, every one of the secrets),
// the same secrets as they appear escaped inside JSON strings, and the
// values of JSON members and name=value pairs whose names are credentials
// ("access_token": "…", API_KEY=…), and how many values it masked.
func (m *Masker) Dump(s string) (string, int) {
	if s == "" {
		return s, 0
	}
	before := strings.Count(s, Masked)
	s = maskCredentials(redactText(s, m.secrets))
	return s, max(0, strings.Count(s, Masked)-before)
}

// withJSONForms adds to secrets each one as it reads inside a JSON string,
// when that differs ("a&b" is "a\u0026b" from Go's encoder, a quote or a
// backslash gains a backslash), so a secret echoed in a JSON body is found.
func withJSONForms(secrets []string) []string {
	out := append([]string(nil), secrets...)
	for _, v := range secrets {
		for _, html := range []bool{false, true} {
			var b bytes.Buffer
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(html)
			if enc.Encode(v) != nil {
				continue
			}
			e := strings.TrimSuffix(b.String(), "\n")
			if e = e[1 : len(e)-1]; e != v {
				out = append(out, e)
			}
		}
	}
	return out
}
