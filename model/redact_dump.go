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

// TokenJudge finds what masking may have missed: words that look like a
// credential (20 or more letters, digits, "_", "-", "+" or "=", letters
// and digits both) that no rule and no known secret matched. Such a word
// may be an id or a hash, or a key mcpdeck was never given; a bundle says
// where they are rather than guess. Words of the harmless texts it was
// given (file paths, hashes mcpdeck computed) are never flagged.
type TokenJudge struct{ known map[string]bool }

// NewTokenJudge returns a judge that passes the words of harmless.
func NewTokenJudge(harmless ...string) *TokenJudge {
	j := &TokenJudge{known: map[string]bool{}}
	for _, h := range harmless {
		for _, w := range tokenWords(h) {
			j.known[w] = true
		}
	}
	return j
}

// Flags reports whether s holds a credential-like word not known harmless.
func (j *TokenJudge) Flags(s string) bool {
	for _, w := range tokenWords(s) {
		if looksLikeToken(w) && !j.known[w] {
			return true
		}
	}
	return false
}

// tokenWords splits s into runs of the characters a token is made of.
func tokenWords(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !isTokenRune(r) })
}

func isTokenRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '+' || r == '='
}
