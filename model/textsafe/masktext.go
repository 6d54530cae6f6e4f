package textsafe

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
)

// textBearer finds an HTTP credential written out in free text, as a server
// may echo the Authorization header it refused. Only a run holding a
// character other than a letter counts, so that English ("bearer
// credential") is left alone.
var textBearer = regexp.MustCompile(`(?i)\b(bearer|basic)(\s+)([A-Za-z0-9._~+/=-]{8,})`)

// textJWT finds a JSON Web Token written out anywhere (an access or ID
// token a server logs or echoes): three base64url parts, the first two
// starting as encoded JSON objects do ("eyJ" is `{"`).
var textJWT = regexp.MustCompile(`eyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*`)

// longestFirst is secrets sorted longest first, so that a secret holding
// another is masked whole.
func longestFirst(secrets []string) []string {
	if len(secrets) < 2 {
		return secrets
	}
	sorted := slices.Clone(secrets)
	slices.SortFunc(sorted, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	return sorted
}

// redactText returns s, free text, with every one of sorted (secrets
// longest first, each worth masking) replaced by Masked, every URL in it
// redacted as a server definition's URL is (user info and secret-looking
// query values), a credential after "Bearer"/"Basic" masked, and anything
// shaped like a JSON Web Token masked. Each pattern is only looked for
// when the text can hold it, so a long body without URLs or credentials
// costs little more than the secrets' search.
func redactText(s string, sorted []string) string {
	if s == "" {
		return s
	}
	for _, v := range sorted {
		s = strings.ReplaceAll(s, v, Masked)
	}
	if strings.Contains(s, "eyJ") {
		s = textJWT.ReplaceAllLiteralString(s, Masked)
	}
	s = replaceURLs(s, func(u string) string {
		trimmed := strings.TrimRight(u, ".,;:)]}!")
		return redactURL(trimmed) + u[len(trimmed):]
	})
	if !containsFold(s, "bearer") && !containsFold(s, "basic") {
		return s
	}
	return textBearer.ReplaceAllStringFunc(s, func(m string) string {
		sub := textBearer.FindStringSubmatch(m)
		if !strings.ContainsFunc(sub[3], func(r rune) bool { return r < 'A' || r > 'z' || (r > 'Z' && r < 'a') }) {
			return m
		}
		return sub[1] + sub[2] + Masked
	})
}
