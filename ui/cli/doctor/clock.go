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
)

// maxClockSkew is how far this machine's clock may be from a remote
// server's before sign-ins and tokens start failing (issued-at and expiry
// checks commonly allow a few minutes).
const maxClockSkew = 2 * time.Minute

// clockChecks compares the clock with the Date header of each remote
// server that may run (a HEAD request, 5 s, no credentials sent, no
// redirect followed), all at once.
func clockChecks(ctx context.Context, res *config.Resolved) []docLine {
	hc := &http.Client{
		Timeout:       5 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	var mu sync.Mutex
	var out []docLine
	var wg sync.WaitGroup
	for _, s := range res.Servers {
		if !s.Runnable() || !s.Config.EffectiveType().Info().Remote {
			continue
		}
		wg.Go(func() {
			line, ok := clockLine(ctx, hc, s.Name, s.Config.URL)
			if !ok {
				return
			}
			mu.Lock()
			out = append(out, line)
			mu.Unlock()
		})
	}
	wg.Wait()
	return out
}

// clockLine checks one server; ok is false when it gave no usable Date.
func clockLine(ctx context.Context, hc *http.Client, name, raw string) (docLine, bool) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return docLine{}, false
	}
	u.User, u.RawQuery, u.Fragment = nil, "", ""
	u.Scheme = strings.Replace(strings.Replace(u.Scheme, "wss", "https", 1), "ws", "http", 1)
	req, err := http.NewRequestWithContext(ctx, http.MethodHead, u.String(), nil)
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
	host := u.Host
	if skew > maxClockSkew {
		dir := "ahead of"
		if sent.Before(date) {
			dir = "behind"
		}
		return docLine{docBad, fmt.Sprintf("clock: this machine is %s %s (server %s's Date header) — sign-ins and tokens may fail; sync the clock", skew, dir, name) + " [" + host + "]"}, true
	}
	return docLine{docOK, fmt.Sprintf("clock: within %s of %s (server %s)", maxClockSkew, host, name)}, true
}
