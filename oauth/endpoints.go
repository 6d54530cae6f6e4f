package oauth

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/policy"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// InsecureEndpointError is an authorization-server URL that credentials
// must not travel to: not https, and not on a loopback address where http
// never leaves the machine. It wraps ErrInsecureEndpoint.
type InsecureEndpointError struct {
	// Role says which URL it is and whose, e.g. "token endpoint of remote's
	// authorization server".
	Role string
	// URL is the refused URL, as the metadata or the configuration wrote it.
	URL string
}

// Error is one sentence naming the URL, its role and the rule.
func (e *InsecureEndpointError) Error() string {
	return fmt.Sprintf("refusing to send credentials to %s: the %s must use https (only loopback may use http)",
		shownURL(e.URL), e.Role)
}

// Unwrap makes errors.Is(err, ErrInsecureEndpoint) hold.
func (e *InsecureEndpointError) Unwrap() error { return ErrInsecureEndpoint }

// secureEndpoint refuses raw unless it is an absolute https URL, or an http
// URL whose host is loopback (127.0.0.0/8, ::1 or localhost). Every URL
// that codes, verifiers, client secrets or tokens are sent to passes here.
func secureEndpoint(role, raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return &InsecureEndpointError{Role: role, URL: raw}
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
		return nil
	case "http":
		if policy.IsLoopbackHost(u.Hostname()) {
			return nil
		}
	}
	return &InsecureEndpointError{Role: role, URL: raw}
}

// checkEndpoints refuses authorization-server metadata that would make us
// send credentials over plain http to another machine: the issuer and
// every endpoint it names. server is the MCP server's name, for the message.
func (d *discovery) checkEndpoints(server string) error {
	owner := server + "'s authorization server"
	for _, ep := range []struct{ name, url string }{
		{"issuer", d.AS.Issuer},
		{"authorization endpoint", d.AS.AuthorizationEndpoint},
		{"token endpoint", d.AS.TokenEndpoint},
		{"registration endpoint", d.AS.RegistrationEndpoint},
		{"revocation endpoint", d.AS.RevocationEndpoint},
	} {
		if ep.url == "" {
			continue // optional endpoints; a missing token endpoint is refused by discovery
		}
		if err := secureEndpoint(ep.name+" of "+owner, ep.url); err != nil {
			return err
		}
	}
	return nil
}

// checkRedirect is the redirect policy of requests to authorization
// servers. A form POST (token, revocation, registration) is never
// re-sent elsewhere: a 307 would carry its codes and secrets to wherever
// the answer points. A metadata GET may follow redirects, but only to
// URLs that secureEndpoint accepts.
func checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	if via[0].Method != http.MethodGet {
		return fmt.Errorf("the authorization server redirected a %s to %s; not following it with credentials",
			via[0].Method, shownURL(req.URL.String()))
	}
	return secureEndpoint("redirect target of "+shownURL(via[0].URL.String()), req.URL.String())
}

// shownURL is a URL from an authorization server or a configuration as it
// may appear in an error: credentials masked, one clean line.
func shownURL(raw string) string {
	return textsafe.SanitizeLine(model.Redact(model.ServerConfig{URL: raw}).URL)
}

// portOrigin is scheme://host:port with the default port spelled out, so
// that https://h and https://h:443 are one origin; ws and wss count as
// http and https (policy.HTTPScheme).
func portOrigin(u *url.URL) string {
	scheme := policy.HTTPScheme(u.Scheme)
	port := u.Port()
	if port == "" {
		port = policy.DefaultPort(scheme)
	}
	if u.Hostname() == "" {
		return ""
	}
	return scheme + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}
