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

// Env returns base with the proxy variables pointing at addr
// ("127.0.0.1:PORT"): HTTP_PROXY and HTTPS_PROXY as http://addr,
// ALL_PROXY as socks5h://addr (names resolved by the proxy), each also in
// lower case (curl reads only http_proxy), NODE_USE_ENV_PROXY=1 (Node's
// fetch honours the variables only with it) and no NO_PROXY.
func Env(base []string, addr string) []string {
	out := make([]string, 0, len(base)+len(proxyVars))
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		if !isProxyVar(name) {
			out = append(out, kv)
		}
	}
	httpURL := "http://" + addr
	socksURL := "socks5h://" + addr
	return append(out,
		"HTTP_PROXY="+httpURL, "HTTPS_PROXY="+httpURL, "ALL_PROXY="+socksURL,
		"http_proxy="+httpURL, "https_proxy="+httpURL, "all_proxy="+socksURL,
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
