package oauth

import (
	"net/url"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// The resource indicator travels in the sign-in URL (the browser's address
// bar, its history, the authorization server's logs) and in token
// requests. A server URL may hold a secret of its own: a key in its path
// (https://mcp.example.com/s/KEY/mcp, often from ${VAR}), in its query, or
// its user info. The resource mcpdeck sends leaves those parts out: user
// info and fragment always, a query holding a secret whole, and the path
// from the first segment that holds a secret on. The authorization server
// may refuse the shorter resource; it then says so, and the key never left.

// sentResource is resource (the server URL's canonical form, or the
// resource its metadata names) without the parts that hold one of srv's
// secrets, and whether it cut any.
func sentResource(resource string, srv model.Server) (string, bool) {
	u, err := url.Parse(resource)
	if err != nil || u.Host == "" {
		return resource, false
	}
	secrets := worthHiding(srv.Secrets())
	holds := func(s string) bool {
		for _, v := range secrets {
			if strings.Contains(s, v) {
				return true
			}
		}
		return false
	}
	cut := false
	if u.User != nil {
		u.User, cut = nil, true
	}
	if u.RawQuery != "" {
		q, _ := url.QueryUnescape(u.RawQuery)
		if holds(u.RawQuery) || holds(q) || textsafe.ReplaceURLSecrets("?"+u.RawQuery, func(string) string { return textsafe.Masked }) != "?"+u.RawQuery {
			u.RawQuery, u.ForceQuery, cut = "", false, true
		}
	}
	if segs := strings.Split(u.EscapedPath(), "/"); len(segs) > 1 {
		for i, s := range segs {
			dec, _ := url.PathUnescape(s)
			if holds(s) || holds(dec) {
				u.RawPath = ""
				u.Path, _ = url.PathUnescape(strings.Join(segs[:i], "/") + "/")
				u.RawQuery, cut = "", true
				break
			}
		}
	}
	return u.String(), cut
}

// worthHiding are the secrets of a set long enough to be told apart from
// ordinary text (textsafe.WorthMasking): a two-letter value would cut
// every path.
func worthHiding(secrets []string) []string {
	var out []string
	for _, v := range secrets {
		if textsafe.WorthMasking(v) {
			out = append(out, v)
		}
	}
	return out
}
