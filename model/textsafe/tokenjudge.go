package textsafe

import (
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
