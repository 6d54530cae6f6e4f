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
