package egress

import "strings"

// proxyVars are the variables Env sets; NO_PROXY is removed, because in a
// namespace with only its own loopback a "direct" connection reaches
// nothing but the sandbox, and a listed loopback host on the machine is
// reached only through the proxy.
var proxyVars = []string{
	"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY",
	"http_proxy", "https_proxy", "all_proxy", "no_proxy",
	"NODE_USE_ENV_PROXY",
}

// Env returns base with the proxy variables pointing at proxyURL
// ("http://USER:PASSWORD@127.0.0.1:PORT", Credential.ProxyURL, whose user
// information clients send as Proxy-Authorization): HTTP_PROXY,
// HTTPS_PROXY and ALL_PROXY, each also in lower case (curl reads only http_proxy),
// NODE_USE_ENV_PROXY=1 (Node's fetch honours the variables only with it)
// and no NO_PROXY. ALL_PROXY is not a socks5h:// URL although the proxy
// speaks SOCKS5: Python's httpx, which the MCP SDK uses, refuses to start
// a client when ALL_PROXY names SOCKS and the optional socksio package is
// missing; a program that wants SOCKS5 can still use the same address.
func Env(base []string, proxyURL string) []string {
	out := make([]string, 0, len(base)+len(proxyVars))
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		if !isProxyVar(name) {
			out = append(out, kv)
		}
	}
	u := proxyURL
	return append(out,
		"HTTP_PROXY="+u, "HTTPS_PROXY="+u, "ALL_PROXY="+u,
		"http_proxy="+u, "https_proxy="+u, "all_proxy="+u,
		"NODE_USE_ENV_PROXY=1",
	)
}

func isProxyVar(name string) bool {
	for _, v := range proxyVars {
		if name == v {
			return true
		}
	}
	return false
}
