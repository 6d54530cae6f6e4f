package oauth

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/launch"
	"github.com/mcpdeck/mcpdeck/model/platform"
)

// maxHelperOutput bounds what a headersHelper may print.
const maxHelperOutput = 64 << 10

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
	st := m.state(srv)
	st.helperMu.Lock()
	defer st.helperMu.Unlock()
	got := st.helperHeaders
	if got == nil || m.opts.Now().Sub(st.helperAt) >= m.opts.HelperCacheTTL || m.opts.Now().Before(st.helperAt) {
		var err error
		got, err = m.runHelper(ctx, srv, helper)
		if err != nil {
			st.helperHeaders = nil
			return nil, fmt.Errorf("server %s: %w", srv.Name, err)
		}
		st.helperHeaders, st.helperAt = got, m.opts.Now()
	}
	for k, v := range got {
		out[k] = v
	}
	return out, nil
}

// untrusted reports a definition the person has not approved: a project
// server not (or no longer) approved. Nothing of it may run or be contacted.
func untrusted(srv model.Server) bool {
	switch srv.Approval.Status {
	case model.ApprovalPending, model.ApprovalChanged, model.ApprovalRejected:
		return true
	case model.ApprovalNotNeeded, model.ApprovalApproved:
	}
	return srv.Scope == model.ScopeProject && srv.Approval.Status != model.ApprovalApproved
}

func (m *Manager) runHelper(ctx context.Context, srv model.Server, helper string) (map[string]string, error) {
	out, err := m.runShell(ctx, srv, helper)
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

// runShell runs a configured command line (headersHelper,
// oauth.assertionCommand) through the one shell runner (launch.RunShell:
// judged by managed policy as the shell it is, in its own process group)
// with MCPDECK_SERVER_NAME and MCPDECK_SERVER_URL, in the directory of the
// config file that defined the server (Server.DefinitionDir), under the
// helper timeout, and
// returns its trimmed output. Errors never quote the output: it holds
// credentials.
func (m *Manager) runShell(ctx context.Context, srv model.Server, line string) ([]byte, error) {
	env := map[string]string{"MCPDECK_SERVER_NAME": srv.Name, "MCPDECK_SERVER_URL": srv.Config.URL}
	out, err := launch.For(srv).RunShell(ctx, line, env, srv.DefinitionDir(), nil,
		platform.Limits{Timeout: m.opts.HelperTimeout, MaxOutput: maxHelperOutput})
	if err != nil {
		return nil, err
	}
	return bytes.TrimSpace(out), nil
}
