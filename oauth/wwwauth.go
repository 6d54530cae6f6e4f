package oauth

import (
	"net/http"
	"strings"
)

// challenge is the Bearer challenge of a WWW-Authenticate header (format of
// RFC 6750, with the resource_metadata parameter of RFC 9728): the
// protected-resource metadata URL, scope and error are what we use.
type challenge struct {
	ResourceMetadata string
	Scopes           []string
	Error            string
	// Open is set by the probe when the server answered its last request
	// without asking for credentials (HTTP 2xx): it did not ask for sign-in.
	Open bool
}

// parseWWWAuthenticate finds the Bearer challenge among the header values,
// else the DPoP one (a server that takes DPoP-bound tokens only challenges
// with that scheme, with the same parameters). It is tolerant: unknown
// schemes and malformed parameters are skipped.
func parseWWWAuthenticate(h http.Header) (challenge, bool) {
	if c, ok := parseChallenge(h, "Bearer"); ok {
		return c, true
	}
	return parseChallenge(h, "DPoP")
}

func parseChallenge(h http.Header, scheme string) (challenge, bool) {
	for _, v := range h.Values("WWW-Authenticate") {
		if params, ok := schemeParams(v, scheme); ok {
			c := challenge{
				ResourceMetadata: params["resource_metadata"],
				Error:            params["error"],
			}
			if s := strings.TrimSpace(params["scope"]); s != "" {
				c.Scopes = strings.Fields(s)
			}
			return c, true
		}
	}
	return challenge{}, false
}

// schemeParams returns the auth-params of the challenge with the given
// scheme in one header value, which may hold several challenges.
func schemeParams(v, scheme string) (map[string]string, bool) {
	s := v
	found := false
	params := map[string]string{}
	for len(s) > 0 {
		s = strings.TrimLeft(s, " \t,")
		if s == "" {
			break
		}
		// A token followed by '=' is a parameter; otherwise it is a scheme.
		tok, rest := cutToken(s)
		if tok == "" {
			// Skip one unexpected character.
			s = s[1:]
			continue
		}
		restTrim := strings.TrimLeft(rest, " \t")
		if strings.HasPrefix(restTrim, "=") && !strings.HasPrefix(restTrim, "==") {
			val, after := cutValue(strings.TrimLeft(restTrim[1:], " \t"))
			if found {
				params[strings.ToLower(tok)] = val
			}
			s = after
			continue
		}
		// New scheme: stop if we already collected the one asked for.
		if found {
			break
		}
		found = strings.EqualFold(tok, scheme)
		s = rest
	}
	return params, found
}

func isTokenChar(c byte) bool {
	return c > 0x20 && c < 0x7f && !strings.ContainsRune("\"(),/:;<=>?@[\\]{}", rune(c))
}

func cutToken(s string) (string, string) {
	i := 0
	for i < len(s) && isTokenChar(s[i]) {
		i++
	}
	return s[:i], s[i:]
}

// cutValue reads a token or a quoted-string with backslash escapes.
func cutValue(s string) (string, string) {
	if !strings.HasPrefix(s, `"`) {
		// token68 may end in '=' padding.
		i := 0
		for i < len(s) && (isTokenChar(s[i]) || s[i] == '=' || s[i] == '/' || s[i] == ':') {
			i++
		}
		return s[:i], s[i:]
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i])
			}
		case '"':
			return b.String(), s[i+1:]
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), ""
}
