package policy

import (
	"errors"
	"net/url"
	"path"
	"strconv"
	"strings"
)

// urlPattern is a parsed serverUrl rule. A URL is compared part by part,
// never as one string, so a wildcard cannot reach from the host into the
// path or from the path into the query: scheme and host compare without
// regard to case, a host's trailing dot is dropped, and a missing port is
// the scheme's default port on both sides. any is the lone "*" pattern,
// which matches every remote server.
type urlPattern struct {
	any    bool
	scheme string // lower case, may hold *
	host   string // lower case without trailing dots, may hold *
	port   string // "" means the URL's default port; may hold *
	path   string // "" means any path; else a glob over the cleaned path
}

// errURLPattern explains what a serverUrl pattern may hold.
var errURLPattern = errors.New(`must be "*" or scheme://host[:port][/path], with * wildcards and no user, query or fragment`)

// parseURLPattern reads a serverUrl rule. User info, a query or a fragment
// are refused rather than ignored: the rule would not mean what it says.
func parseURLPattern(s string) (urlPattern, error) {
	if s == "*" {
		return urlPattern{any: true}, nil
	}
	scheme, rest, ok := strings.Cut(s, "://")
	if !ok || scheme == "" || strings.ContainsAny(rest, "?#@\\") || strings.ContainsAny(s, " \t\r\n") {
		return urlPattern{}, errURLPattern
	}
	authority, p := rest, ""
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		authority, p = rest[:i], rest[i:]
	}
	host, port := splitHostPort(authority)
	host = normalHost(host)
	if host == "" || (port == "" && strings.HasSuffix(authority, ":")) {
		return urlPattern{}, errURLPattern
	}
	if port != "" && port != "*" {
		n, err := strconv.Atoi(port)
		if err != nil || n < 0 || n > 65535 {
			return urlPattern{}, errURLPattern
		}
		port = strconv.Itoa(n)
	}
	if p != "" {
		if u, err := url.PathUnescape(p); err == nil {
			p = u
		}
		p = cleanURLPath(p)
	}
	return urlPattern{scheme: strings.ToLower(scheme), host: host, port: port, path: p}, nil
}

// splitHostPort splits "host:port" or "[v6]:port"; port is "" when absent.
func splitHostPort(a string) (host, port string) {
	if strings.HasPrefix(a, "[") {
		if end := strings.IndexByte(a, ']'); end >= 0 {
			host, rest := a[1:end], a[end+1:]
			return host, strings.TrimPrefix(rest, ":")
		}
		return a, ""
	}
	if i := strings.LastIndexByte(a, ':'); i >= 0 {
		return a[:i], a[i+1:]
	}
	return a, ""
}

// normalHost is host in lower case without trailing dots ("A.Example." and
// "a.example" are the same host to DNS).
func normalHost(h string) string {
	return strings.TrimRight(strings.ToLower(h), ".")
}

// cleanURLPath resolves "." and ".." segments and repeated slashes the way
// a server would, keeping a trailing slash, so "/public/../admin" is
// compared as "/admin". The empty path is "/".
func cleanURLPath(p string) string {
	if p == "" {
		return "/"
	}
	c := path.Clean("/" + p)
	if strings.HasSuffix(p, "/") && c != "/" {
		c += "/"
	}
	return c
}

// urlParts is a server URL reduced to what a pattern compares.
type urlParts struct {
	scheme, host, port, path string
}

// parseServerURL reduces raw to its parts. ok is false when raw is not an
// absolute URL with a host: such a URL never satisfies an allow rule and
// always satisfies a deny rule.
func parseServerURL(raw string) (urlParts, bool) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Scheme == "" || u.Opaque != "" || u.Hostname() == "" {
		return urlParts{}, false
	}
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		if strings.HasSuffix(u.Host, ":") {
			return urlParts{}, false
		}
		port = DefaultPort(scheme)
	} else {
		n, err := strconv.Atoi(port)
		if err != nil {
			return urlParts{}, false
		}
		port = strconv.Itoa(n)
	}
	host := normalHost(u.Hostname())
	if host == "" {
		return urlParts{}, false
	}
	return urlParts{scheme: scheme, host: host, port: port, path: cleanURLPath(u.Path)}, true
}

// match reports whether the URL parts satisfy the pattern. A pattern
// without a port wants the URL's scheme's default port; a pattern without
// a path accepts any path.
func (p urlPattern) match(u urlParts) bool {
	if p.any {
		return true
	}
	if !globMatch(p.scheme, u.scheme) || !globMatch(p.host, u.host) {
		return false
	}
	wantPort := p.port
	if wantPort == "" {
		wantPort = DefaultPort(u.scheme)
	}
	if !globMatch(wantPort, u.port) {
		return false
	}
	return p.path == "" || globMatch(p.path, u.path)
}
