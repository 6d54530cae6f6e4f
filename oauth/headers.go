package oauth

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/lock"
)

// maxHelperOutput bounds what a headersHelper may print.
const maxHelperOutput = 64 << 10

// helperCache is the headersHelper part: per server, the helper's last
// output and when it was made. Each server's slot has its own mutex, held
// while the helper runs, so that concurrent callers wait for one run.
type helperCache struct {
	ttl     time.Duration // Options.HelperCacheTTL
	timeout time.Duration // Options.HelperTimeout
	now     func() time.Time
	slots   lock.Map[string, *helperSlot]
}

type helperSlot struct {
	mu      sync.Mutex
	headers map[string]string
	at      time.Time
}

// slot is the server's slot, made on first use.
func (c *helperCache) slot(srv model.Server) *helperSlot {
	var s *helperSlot
	c.slots.Update(stateKey(srv), func(p **helperSlot) {
		if *p == nil {
			*p = &helperSlot{}
		}
		s = *p
	})
	return s
}

// forget drops the server's cached output, so that the next request runs
// the helper again.
func (c *helperCache) forget(srv model.Server) {
	s := c.slot(srv)
	lock.With(&s.mu, func() { s.headers = nil })
}

// headers is the helper's output for srv: the cached one while it is
// fresh, else a new run's.
func (c *helperCache) headers(ctx context.Context, srv model.Server, helper string) (got map[string]string, err error) {
	s := c.slot(srv)
	lock.With(&s.mu, func() {
		got = s.headers
		if got != nil && c.now().Sub(s.at) < c.ttl && !c.now().Before(s.at) {
			return
		}
		got, err = runHelper(ctx, srv, helper, c.timeout)
		if err != nil {
			s.headers = nil
			return
		}
		s.headers, s.at = got, c.now()
	})
	return got, err
}

// Headers returns the server's static headers overridden by what its
// headersHelper prints (a JSON object of strings). The helper runs with
// MCPDECK_SERVER_NAME and MCPDECK_SERVER_URL, in the directory of the
// config file that defined the server, under the helper timeout (10 s). It
// never runs for an unapproved project server. Transports call this per
// request, so a successful result is reused for HelperCacheTTL (concurrent
// callers wait for one run); MarkNeedsAuth forgets it so that a 401 gets
// fresh headers on the next attempt.
func (m *Manager) Headers(ctx context.Context, srv model.Server) (map[string]string, error) {
	out := make(map[string]string, len(srv.Config.Headers))
	for k, v := range srv.Config.Headers {
		out[k] = v
	}
	helper := strings.TrimSpace(srv.Config.HeadersHelper)
	if helper == "" {
		return out, nil
	}
	if untrusted(srv) {
		return nil, fmt.Errorf("server %s: headersHelper not run: %w", srv.Name, ErrUntrusted)
	}
	got, err := m.helpers.headers(ctx, srv, helper)
	if err != nil {
		return nil, fmt.Errorf("server %s: %w", srv.Name, err)
	}
	for k, v := range got {
		out[k] = v
	}
	return out, nil
}

func runHelper(ctx context.Context, srv model.Server, helper string, timeout time.Duration) (map[string]string, error) {
	out, err := runShell(ctx, srv, helper, timeout)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrHelper, err)
	}
	var raw map[string]any
	if err := json.Unmarshal(out, &raw); err != nil {
		// Never echo stdout: it holds credentials.
		return nil, fmt.Errorf("%w: its output is not a JSON object of headers", ErrHelper)
	}
	got := make(map[string]string, len(raw))
	for k, v := range raw {
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("%w: header %q is not a string", ErrHelper, k)
		}
		if k == "" || strings.ContainsAny(k, " \t\r\n:") || strings.ContainsAny(s, "\r\n") {
			return nil, fmt.Errorf("%w: header %q is not a valid HTTP header", ErrHelper, k)
		}
		got[k] = s
	}
	return got, nil
}
