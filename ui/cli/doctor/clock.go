package doctor

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/policy"
)

// maxClockSkew is how far this machine's clock may be from a remote
// server's before sign-ins and tokens start failing (issued-at and expiry
// checks commonly allow a few minutes).
const maxClockSkew = 2 * time.Minute

// clockHost is one machine remote servers run on: one clock, asked once
// whatever number of servers it serves.
type clockHost struct {
	url     *url.URL // the first server's URL, credentials and query dropped
	servers []string
}

// clockChecks compares the clock with the Date header of each host that
// runs a remote server that may run (a HEAD request to the origin of one
// of its servers, 5 s, no credentials sent, no redirect followed), all
// hosts at once, one line per host in the servers' order.
func clockChecks(ctx context.Context, res *config.Resolved) []docLine {
	hc := &http.Client{
		Timeout:       5 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	var hosts []*clockHost
	byName := map[string]*clockHost{}
	for _, s := range res.Servers {
		if !s.Runnable() || !s.Config.EffectiveType().Info().Remote {
			continue
		}
		u, ok := clockURL(s.Config.URL)
		if !ok {
			continue
		}
		h := byName[u.Hostname()]
		if h == nil {
			h = &clockHost{url: u}
			byName[u.Hostname()] = h
			hosts = append(hosts, h)
		}
		h.servers = append(h.servers, s.Name)
	}
	lines := make([]docLine, len(hosts))
	got := make([]bool, len(hosts))
	var wg sync.WaitGroup
	for i, h := range hosts {
		wg.Go(func() { lines[i], got[i] = clockLine(ctx, hc, h) })
	}
	wg.Wait()
	var out []docLine
	for i, l := range lines {
		if got[i] {
			out = append(out, l)
		}
	}
	return out
}

// clockURL is where a server's clock is asked: the origin of its URL, over
// HTTP(S) (policy.HTTPScheme). Not the endpoint itself: an SSE endpoint of
// the TypeScript SDK answers HEAD with no headers at all until the client
// gives up, while any web server dates its answer for "/"; and a path may
// hold a key.
func clockURL(raw string) (*url.URL, bool) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return nil, false
	}
	u = &url.URL{Scheme: policy.HTTPScheme(u.Scheme), Host: u.Host, Path: "/"}
	return u, true
}

// clockLine checks one host; ok is false when it gave no usable Date.
func clockLine(ctx context.Context, hc *http.Client, h *clockHost) (docLine, bool) {
	req, err := http.NewRequestWithContext(ctx, http.MethodHead, h.url.String(), nil)
	if err != nil {
		return docLine{}, false
	}
	sent := time.Now()
	resp, err := hc.Do(req)
	if err != nil {
		return docLine{}, false
	}
	_ = resp.Body.Close()
	date, err := http.ParseTime(resp.Header.Get("Date"))
	if err != nil {
		return docLine{}, false
	}
	skew := sent.Add(time.Since(sent) / 2).Sub(date).Round(time.Second)
	if skew < 0 {
		skew = -skew
	}
	servers := "server " + h.servers[0]
	if len(h.servers) > 1 {
		servers = "servers " + strings.Join(h.servers, ", ")
	}
	if skew > maxClockSkew {
		dir := "ahead of"
		if sent.Before(date) {
			dir = "behind"
		}
		return docLine{
			mark: docBad,
			text: fmt.Sprintf("clock: this machine is %s %s %s (its Date header; %s): sign-ins and tokens may fail", skew, dir, h.url.Host, servers),
			fix:  "set this machine's clock right, or have it kept right by a time server (NTP)",
		}, true
	}
	return docLine{mark: docOK, text: fmt.Sprintf("clock: within %s of %s (%s)", maxClockSkew, h.url.Host, servers)}, true
}
