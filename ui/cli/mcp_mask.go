package cli

import (
	"regexp"
	"strings"
)

// varRef matches a ${VAR} or ${VAR:-default} reference.
var varRef = regexp.MustCompile(`\$\{[^}]*\}`)

// maskedValue is what a secret-looking value is shown as. It has a fixed
// length so that it does not reveal the secret's.
const maskedValue = "****"

// maskValue hides an env or header value as written in config. Values made
// only of ${VAR} references (optionally after an auth scheme such as
// "Bearer ") hold no secret and are shown, so the person can see which
// variable feeds them; anything with literal text is masked.
func maskValue(raw string) string {
	if raw == "" {
		return ""
	}
	if !strings.Contains(raw, "${") {
		return maskedValue
	}
	rest := strings.TrimSpace(varRef.ReplaceAllString(raw, ""))
	switch strings.ToLower(rest) {
	case "", "bearer", "basic", "token":
		return raw
	}
	return maskedValue
}

// maskMap applies maskValue to every value.
func maskMap(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = maskValue(v)
	}
	return out
}

// maskURL hides the secrets a server URL may carry as written: the password
// of user:password@ and the values of query parameters whose names look like
// credentials (api_key, token, secret, password, auth, sig, ...), unless the
// value is only ${VAR} references. Everything else is shown as written so the
// person can still recognise the server.
func maskURL(raw string) string {
	out := raw
	if i := strings.Index(out, "://"); i >= 0 {
		rest := out[i+3:]
		end := strings.IndexAny(rest, "/?#")
		if end < 0 {
			end = len(rest)
		}
		if at := strings.LastIndexByte(rest[:end], '@'); at >= 0 {
			if user, pass, ok := strings.Cut(rest[:at], ":"); ok && maskValue(pass) == maskedValue {
				out = out[:i+3] + user + ":" + maskedValue + rest[at:]
			}
		}
	}
	q := strings.IndexByte(out, '?')
	if q < 0 {
		return out
	}
	query, frag, _ := strings.Cut(out[q+1:], "#")
	parts := strings.Split(query, "&")
	for i, part := range parts {
		k, v, ok := strings.Cut(part, "=")
		if ok && v != "" && secretParam(k) && maskValue(v) == maskedValue {
			parts[i] = k + "=" + maskedValue
		}
	}
	out = out[:q+1] + strings.Join(parts, "&")
	if frag != "" || strings.Contains(raw[q:], "#") {
		out += "#" + frag
	}
	return out
}

// secretParam reports whether a query parameter name looks like a credential.
func secretParam(name string) bool {
	n := strings.ToLower(name)
	for _, s := range []string{"key", "token", "secret", "pass", "auth", "sig", "cred", "session"} {
		if strings.Contains(n, s) {
			return true
		}
	}
	return false
}
