package textsafe

import (
	"regexp"
	"strings"
)

// Masked is what a secret is shown as, wherever a server definition is
// displayed. It has a fixed length so that it does not reveal the secret's.
const Masked = "****"

// varRef matches a ${VAR} or ${VAR:-default} reference.
var varRef = regexp.MustCompile(`\$\{[^}]*\}`)

// VarRefs returns the ${VAR} and ${VAR:-default} references written in s,
// in order: what a value made only of references (kept by Redact) is made
// of.
func VarRefs(s string) []string { return varRef.FindAllString(s, -1) }

// secretFlag matches command-line flag names whose value is a secret:
// --token=x inline, or --api-key x where the value is the next argument.
// Narrower than secretParam, so that ordinary flags (--key-file, --signal)
// stay readable.
var secretFlag = regexp.MustCompile(`(?i)(token|secret|password|passwd|api[-_]?key|auth|credential|bearer)`)

// MaskWritten hides an env, header, URL or argument value as written.
// Empty stays empty, a value of only ${VAR} references (after an optional
// Bearer/Basic/Token scheme) is kept, anything with literal text is masked.
func MaskWritten(raw string) string {
	if raw == "" {
		return ""
	}
	if !strings.Contains(raw, "${") {
		return Masked
	}
	rest := strings.TrimSpace(varRef.ReplaceAllString(raw, ""))
	switch strings.ToLower(rest) {
	case "", "bearer", "basic", "token":
		return raw
	}
	return Masked
}

// IsLiteralSecret reports whether an env or header value, as written under
// key, puts a secret into a file as literal text: Redact would mask it (it
// is not only ${VAR} references) and either the key names a credential
// (TOKEN, API_KEY, Authorization...) or the value looks like a token. Used
// to warn before such a value goes into a shared file such as .mcp.json.
func IsLiteralSecret(key, value string) bool {
	if MaskWritten(value) != Masked {
		return false
	}
	return secretFlag.MatchString(key) || looksLikeToken(value)
}

// looksLikeToken is a long run of letters and digits, possibly after an auth
// scheme, with both present: generated keys look like that, words and paths
// do not.
func looksLikeToken(v string) bool {
	if _, rest, ok := strings.Cut(v, " "); ok && !strings.Contains(rest, " ") {
		v = rest
	}
	if len(v) < 20 {
		return false
	}
	var letters, digits bool
	for _, r := range v {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
			letters = true
		case r >= '0' && r <= '9':
			digits = true
		case r == '-', r == '_', r == '.', r == '+', r == '=', r == '/':
		default:
			return false
		}
	}
	return letters && digits
}
