package model

import (
	"cmp"
	"encoding/base64"
	"net/url"
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

// minSecretLen is the shortest configured value RedactText replaces: a
// shorter value ("1", "true", "dev") is ordinary text far more often than
// it is a credential, and masking it would garble the sentence.
const minSecretLen = 6

// RedactText returns s, free text such as an error message, with the
// secrets it may carry masked, so that errors can be shown and printed as
// they are: every URL in it is redacted as a server definition's URL is
// (user info and secret-looking query values), a credential after
// "Bearer"/"Basic"/"Token" is masked, so is anything shaped like a JSON Web
// Token, and every occurrence of one of
// secrets (the expanded values SecretValues lists) becomes Masked.
func RedactText(s string, secrets ...string) string {
	return redactText(s, longestFirst(secrets))
}

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

// redactText is RedactText with secrets already longest first. Each
// pattern is only looked for when the text can hold it, so a long body
// without URLs or credentials costs little more than the secrets' search.
func redactText(s string, sorted []string) string {
	if s == "" {
		return s
	}
	for _, v := range sorted {
		if len(v) >= minSecretLen && v != Masked {
			s = strings.ReplaceAll(s, v, Masked)
		}
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

// SecretValues lists the literal secrets an expanded server definition
// carries — every env and header value (and the credential after an auth
// scheme such as "Bearer "), the URL's password (or lone user name), the values
// of its secret-looking query parameters, and arguments Redact would mask —
// in the forms they may take in an error message (as is, URL-encoded,
// base64 inside "Basic"). Pass them to RedactText. cfg must be expanded:
// these are exactly the values Redact hides or shows as ${VAR}.
func SecretValues(cfg ServerConfig) []string {
	var out []string
	add := func(v string) {
		v = strings.TrimSpace(v)
		if v == "" {
			return
		}
		out = append(out, v)
		if q := url.QueryEscape(v); q != v {
			out = append(out, q)
		}
	}
	for _, v := range cfg.Env {
		add(v)
	}
	for _, v := range cfg.Headers {
		add(v)
		scheme, cred, ok := strings.Cut(strings.TrimSpace(v), " ")
		if !ok {
			continue
		}
		add(cred)
		if strings.EqualFold(scheme, "basic") {
			if dec, err := base64.StdEncoding.DecodeString(strings.TrimSpace(cred)); err == nil {
				user, pass, _ := strings.Cut(string(dec), ":")
				add(user)
				add(pass)
			}
		}
	}
	if u, err := url.Parse(cfg.URL); err == nil {
		if u.User != nil {
			if p, ok := u.User.Password(); ok {
				add(p)
			} else {
				add(u.User.Username()) // a lone user name is usually a token
			}
		}
		for k, vs := range u.Query() {
			if secretParam(k) {
				for _, v := range vs {
					add(v)
				}
			}
		}
	}
	red := redactArgs(cfg.Args)
	for i, a := range cfg.Args {
		if red[i] == a {
			continue
		}
		if flag, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(flag, "-") {
			add(v)
		} else {
			add(a)
		}
	}
	return out
}
