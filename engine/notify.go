package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/launch"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// connOptions builds the per-server callbacks handed to the transport.
func (e *Engine) connOptions(srv model.Server, mask *textsafe.Masker, policy *atomic.Pointer[model.Policy]) connOptions {
	o := connOptions{
		Elicit: func(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
			return e.elicit(ctx, srv.Name, req)
		},
		Roots:          e.roots,
		LogDir:         filepath.Join(e.opts.CacheDir, "logs"),
		Builtins:       e.opts.Builtins,
		MaxMessageSize: e.opts.MaxMessageSize,
	}
	name := srv.Name
	if e.opts.Sample != nil || e.opts.SamplingCommand != "" {
		o.Sample = func(ctx context.Context, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return e.sample(ctx, name, req)
		}
	}
	o.OnNotification = func(n mcp.JSONRPCNotification) { e.onNotification(name, n) }
	o.OnFrame = func(f Frame) { e.onFrame(name, f) }
	o.Mask = mask
	o.Launcher = launch.For(srv)
	if e.opts.Auth != nil && srv.Config.EffectiveType().IsRemote() {
		o.HTTPClient = e.opts.Auth.HTTPClient(srv)
		if trusted(srv) && srv.Config.HeadersHelper != "" {
			auth := e.opts.Auth
			o.HeaderFunc = func(ctx context.Context) (map[string]string, error) {
				now := srv
				if p := policy.Load(); p != nil {
					now.ManagedPolicy = *p // the policy in force now, not at connect
				}
				return auth.Headers(ctx, now)
			}
		}
	}
	return o
}

// roots answers roots/list with the project root.
func (e *Engine) roots(context.Context) ([]mcp.Root, error) {
	e.mu.Lock()
	root := ""
	if e.res != nil {
		root = e.res.ProjectRoot
	}
	e.mu.Unlock()
	if root == "" {
		root = e.opts.Load.Cwd
	}
	if root == "" {
		return []mcp.Root{}, nil
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("project root: %w", err)
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}
	return []mcp.Root{{URI: u.String(), Name: filepath.Base(abs)}}, nil
}

// elicit routes a server's elicitation/create to Options.Elicit, unless
// MaxPendingAsks of the server's requests already wait (then it is declined
// at once).
func (e *Engine) elicit(ctx context.Context, server string, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	release, err := e.admitAsk(server)
	if err != nil {
		return nil, err
	}
	defer release()
	p := req.Params
	mode := p.Mode
	if mode == "" {
		mode = string(mcp.ElicitationModeForm)
	}
	r := ElicitRequest{Server: server, Mode: mode, Message: sanitize(p.Message), URL: p.URL, ElicitationID: p.ElicitationID}
	if p.RequestedSchema != nil {
		raw, err := json.Marshal(p.RequestedSchema)
		if err == nil {
			r.Schema = raw
		}
	}
	answer := e.answer
	if ic := inputCallFrom(ctx); ic != nil {
		r.Request = ic.what
		answer = func(ctx context.Context, r ElicitRequest) (ElicitResponse, error) { return ic.ask(ctx, r, e.answer) }
	}
	resp, err := answer(ctx, r)
	if err != nil {
		return nil, err
	}
	out := &mcp.ElicitationResult{}
	out.Action = mcp.ElicitationResponseAction(resp.Action)
	if resp.Action == ElicitAccept && resp.Content != nil {
		out.Content = resp.Content
	}
	return out, nil
}

// answer asks the configured handler, declining when there is none.
func (e *Engine) answer(ctx context.Context, r ElicitRequest) (ElicitResponse, error) {
	if e.opts.Elicit == nil {
		e.log.Warn("elicitation declined: no handler (run the TUI or pass --elicit)", "server", r.Server, "mode", r.Mode, "message", r.Message)
		return ElicitResponse{Action: ElicitDecline, Reason: "elicitation needs the TUI or the --elicit flag"}, nil
	}
	resp, err := e.opts.Elicit(ctx, r)
	if err != nil {
		return ElicitResponse{}, fmt.Errorf("elicitation for %s: %w", r.Server, err)
	}
	switch resp.Action {
	case ElicitAccept, ElicitDecline, ElicitCancel:
	default:
		return ElicitResponse{}, fmt.Errorf("elicitation for %s: unknown action %q", r.Server, resp.Action)
	}
	if resp.Reason != "" {
		e.log.Info("elicitation answered", "server", r.Server, "action", resp.Action, "reason", resp.Reason)
	}
	return resp, nil
}

// onNotification handles server notifications: list changes refetch only
// that list, progress goes to the running call.
func (e *Engine) onNotification(server string, n mcp.JSONRPCNotification) {
	switch n.Method {
	case string(mcp.MethodNotificationToolsListChanged):
		e.refetch(server, listTools)
	case string(mcp.MethodNotificationResourcesListChanged):
		e.refetch(server, listResources)
		e.refetch(server, listTemplates)
	case string(mcp.MethodNotificationPromptsListChanged):
		e.refetch(server, listPrompts)
	case string(mcp.MethodNotificationProgress):
		e.onProgress(n)
	case string(mcp.MethodNotificationMessage):
		e.onLogMessage(server, n)
	case string(mcp.MethodNotificationResourceUpdated):
		uri, _ := n.Params.AdditionalFields["uri"].(string)
		e.onResourceUpdated(server, uri)
	}
}

// onProgress forwards a progress notification to its call's callback.
func (e *Engine) onProgress(n mcp.JSONRPCNotification) {
	f := n.Params.AdditionalFields
	tok := fmt.Sprint(f["progressToken"])
	e.mu.Lock()
	cb := e.progress[tok]
	e.mu.Unlock()
	if cb == nil {
		return
	}
	p := Progress{}
	p.Progress = number(f["progress"])
	p.Total = number(f["total"])
	if m, ok := f["message"].(string); ok {
		p.Message = capText(m)
	}
	cb(p)
}

// refetch reloads one list in the background. A flood of list_changed
// notifications coalesces: while a refetch runs, further requests only mark
// the list dirty, and one more refetch follows.
func (e *Engine) refetch(server string, k listKind) {
	e.mu.Lock()
	defer e.mu.Unlock()
	en := e.byName[server]
	if e.closed || en == nil {
		return
	}
	e.feed(en, evListChanged{at: now(), list: k}, nil)
}

// refetchLocked runs the refetch of list k step asked for. Callers hold e.mu.
func (e *Engine) refetchLocked(en *entry, k listKind) {
	if en.refetching[k] {
		en.dirty[k] = true
		return
	}
	en.refetching[k] = true
	conn, gen := en.conn, en.st.gen
	srv := en.srv
	e.wg.Go(func() {
		for {
			ctx, cancel := context.WithTimeout(e.ctx, e.set.connectTimeout)
			one := e.fetchList(ctx, srv.Name, conn.Client(), k)
			cancel()
			var l lists
			mergeList(&l, one, k)
			e.mu.Lock()
			if e.closed || en.st.gen != gen || en.conn != conn {
				en.refetching[k], en.dirty[k] = false, false
				e.mu.Unlock()
				return
			}
			if one.fatal != nil { // the list grew over the size limit
				en.refetching[k], en.dirty[k] = false, false
				e.lostLocked(en, gen, one.fatal)
				e.mu.Unlock()
				return
			}
			e.markLists(&l)
			problem, detail := e.listProblems(en, l)
			e.applyLists(en, l)
			e.feed(en, evListed{at: now(), gen: gen, problem: problem, detail: detail}, nil)
			again := en.dirty[k]
			en.dirty[k] = false
			if !again {
				en.refetching[k] = false
			}
			e.mu.Unlock()
			if !again {
				return
			}
		}
	})
}

// number reads a JSON number that may arrive decoded (float64, json.Number)
// or, from in-process servers that skip the JSON round trip, as a Go integer.
func number(v any) float64 {
	switch n := v.(type) {
	case float64:
		return n
	case float32:
		return float64(n)
	case int:
		return float64(n)
	case int64:
		return float64(n)
	case int32:
		return float64(n)
	case uint64:
		return float64(n)
	case json.Number:
		f, _ := n.Float64()
		return f
	}
	return 0
}
