package imports

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
)

// varPattern matches a ${VAR} or ${VAR:-default} reference.
var varPattern = regexp.MustCompile(`\$\{[^}]*\}`)

// ErrBadURL is returned for a server URL that cannot be used.
var ErrBadURL = errors.New("bad server URL")

// DetectTransport guesses the transport of a remote server from its URL, the
// way `mcpdeck mcp add NAME URL` does without -t: ws:// and wss:// are
// WebSocket; an http(s) URL with a path segment "sse" (".../sse", "/sse/v1")
// is SSE; any other http(s) URL is streamable HTTP.
func DetectTransport(raw string) (model.Transport, error) {
	u, err := parseURL(raw)
	if err != nil {
		return "", err
	}
	switch u.Scheme {
	case "ws", "wss":
		return model.TransportWS, nil
	}
	for _, seg := range strings.Split(u.Path, "/") {
		if strings.EqualFold(seg, "sse") {
			return model.TransportSSE, nil
		}
	}
	return model.TransportHTTP, nil
}

// CheckURL reports whether raw is a usable URL for transport t: ws needs ws://
// or wss://, sse and http need http:// or https://.
func CheckURL(t model.Transport, raw string) error {
	u, err := parseURL(raw)
	if err != nil {
		return err
	}
	ws := u.Scheme == "ws" || u.Scheme == "wss"
	if t == model.TransportWS && !ws {
		return fmt.Errorf("%w: %q: a ws server needs a ws:// or wss:// URL", ErrBadURL, raw)
	}
	if t != model.TransportWS && ws {
		return fmt.Errorf("%w: %q: a %s server needs an http:// or https:// URL", ErrBadURL, raw, t)
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
	switch u.Scheme {
	case "http", "https", "ws", "wss":
		return u, nil
	}
	return nil, fmt.Errorf("%w: %q: the scheme must be http, https, ws or wss", ErrBadURL, raw)
}
