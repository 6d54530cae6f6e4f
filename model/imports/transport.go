package imports

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
)

// varPattern matches a ${VAR} or ${VAR:-default} reference.
var varPattern = regexp.MustCompile(`\$\{[^}]*\}`)

// ErrBadURL is returned for a server URL that cannot be used.
var ErrBadURL = errors.New("bad server URL")

// DetectTransport guesses the transport of a remote server from its URL, the
// way `mcpdeck mcp add NAME URL` does without -t: of the remote transports
// that take the URL's scheme, the one whose path hint is a segment of its
// path (".../sse", "/sse/v1" is SSE), else the one without a hint (ws://
// and wss:// are WebSocket, any other http(s) URL is streamable HTTP).
func DetectTransport(raw string) (model.Transport, error) {
	u, err := parseURL(raw)
	if err != nil {
		return "", err
	}
	segs := strings.Split(u.Path, "/")
	var plain model.Transport
	for _, t := range model.Transports() {
		switch {
		case !t.Remote || !t.Addable || !slices.Contains(t.Schemes, u.Scheme):
		case t.PathHint == "":
			if plain == "" {
				plain = t.Name
			}
		case slices.ContainsFunc(segs, func(s string) bool { return strings.EqualFold(s, t.PathHint) }):
			return t.Name, nil
		}
	}
	if plain == "" {
		return "", fmt.Errorf("%w: %q: no transport takes a %s:// URL", ErrBadURL, raw, u.Scheme)
	}
	return plain, nil
}

// CheckURL reports whether raw is a usable URL for transport t: its scheme
// is one t takes (ws needs ws:// or wss://, sse and http need http:// or
// https://).
func CheckURL(t model.Transport, raw string) error {
	u, err := parseURL(raw)
	if err != nil {
		return err
	}
	schemes := t.Info().Schemes
	if !slices.Contains(schemes, u.Scheme) {
		return fmt.Errorf("%w: %q: a %s server needs a URL that starts with %s", ErrBadURL, raw, t, strings.Join(schemes, ":// or ")+"://")
	}
	return nil
}

// parseURL parses raw with every ${VAR} replaced by a placeholder, so that a
// URL whose host or path comes from the environment can still be checked.
func parseURL(raw string) (*url.URL, error) {
	u, err := url.Parse(varPattern.ReplaceAllString(raw, "var"))
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("%w: %q is not an absolute URL with a host", ErrBadURL, raw)
	}
	u.Scheme = strings.ToLower(u.Scheme)
	var all []string
	for _, t := range model.Transports() {
		for _, s := range t.Schemes {
			if s == u.Scheme {
				return u, nil
			}
			if !slices.Contains(all, s) {
				all = append(all, s)
			}
		}
	}
	return nil, fmt.Errorf("%w: %q: the scheme must be one of %s", ErrBadURL, raw, strings.Join(all, ", "))
}
