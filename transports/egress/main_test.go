package egress

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"testing"

	"go.uber.org/goleak"
)

// childEnv names the role a re-executed test binary plays: "fetch" GETs
// the URL in fetchURLEnv through the proxy HTTP_PROXY names, like curl.
const (
	childEnv    = "EGRESS_TEST_CHILD"
	fetchURLEnv = "EGRESS_TEST_URL"
)

func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == ShimArg {
		os.Exit(RunShim(os.Args[2:]))
	}
	if os.Getenv(childEnv) == "fetch" {
		os.Exit(fetchChild())
	}
	goleak.VerifyTestMain(m)
}

// fetchChild prints "STATUS BODY" of a GET through $HTTP_PROXY. Go's own
// environment lookup never proxies loopback, so the proxy is set
// explicitly, as curl would use it.
func fetchChild() int {
	proxy, err := url.Parse(os.Getenv("HTTP_PROXY"))
	if err != nil || proxy.Host == "" {
		fmt.Fprintln(os.Stderr, "fetch: HTTP_PROXY is not set")
		return 3
	}
	c := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxy)}}
	resp, err := c.Get(os.Getenv(fetchURLEnv))
	if err != nil {
		fmt.Fprintln(os.Stderr, "fetch:", err)
		return 4
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Printf("%d %s", resp.StatusCode, body)
	return 0
}
