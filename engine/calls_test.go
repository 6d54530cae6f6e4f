package engine

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/policy"
)

// toolServer is an in-process server with the given tool handlers (empty
// input schemas).
func toolServer(tools map[string]server.ToolHandlerFunc) func() *server.MCPServer {
	return func() *server.MCPServer {
		s := server.NewMCPServer("t", "1", server.WithToolCapabilities(false), server.WithElicitation())
		for name, h := range tools {
			s.AddTool(mcp.NewTool(name), h)
		}
		return s
	}
}

func TestURLElicitationRetried(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var calls, always atomic.Int32
		urlErr := mcp.URLElicitationRequiredError{Elicitations: []mcp.ElicitationParams{{
			Mode: "url", Message: "sign in", URL: "https://example.com/consent", ElicitationID: "e1",
		}}}
		n := newFakeNet()
		n.servers["s"] = toolServer(map[string]server.ToolHandlerFunc{
			"twice": func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				if calls.Add(1) <= 2 {
					return nil, urlErr
				}
				return mcp.NewToolResultText("ok"), nil
			},
			"always": func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				always.Add(1)
				return nil, urlErr
			},
		})
		e := newTestEngine(t, n, stdioServer("s"))
		var asked []ElicitRequest
		e.opts.Elicit = func(_ context.Context, r ElicitRequest) (ElicitResponse, error) {
			asked = append(asked, r)
			return ElicitResponse{Action: ElicitAccept}, nil
		}
		mustStart(t, e)
		current(t, e, "s")
		res, err := e.CallTool(context.Background(), "s", "twice", nil, nil)
		if err != nil || res.Content[0].Text != "ok" {
			t.Fatalf("twice: %+v %v", res, err)
		}
		if len(asked) != 2 || asked[0].Mode != "url" || asked[0].URL != "https://example.com/consent" || asked[0].Server != "s" {
			t.Fatalf("asked = %+v", asked)
		}
		asked = nil
		if _, err := e.CallTool(context.Background(), "s", "always", nil, nil); err == nil {
			t.Fatal("always: no error")
		}
		if len(asked) != maxURLElicitRetry || always.Load() != 1+maxURLElicitRetry {
			t.Errorf("always: asked %d times, called %d times; want %d retries after the first call", len(asked), always.Load(), maxURLElicitRetry)
		}
		e.opts.Elicit = nil // no handler: declined with a clear message
		_, err = e.CallTool(context.Background(), "s", "always", nil, nil)
		if err == nil || !strings.Contains(err.Error(), "https://example.com/consent") || !strings.Contains(err.Error(), "declined") {
			t.Errorf("no handler: %v", err)
		}
	})
}

func TestServerElicitationAndRoots(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := newFakeNet()
		n.servers["s"] = toolServer(map[string]server.ToolHandlerFunc{
			"ask": func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				req := mcp.ElicitationRequest{}
				req.Params.Message = "who?"
				req.Params.RequestedSchema = map[string]any{
					"type":       "object",
					"properties": map[string]any{"name": map[string]any{"type": "string", "default": "Ada"}},
				}
				r, err := server.ServerFromContext(ctx).RequestElicitation(ctx, req)
				if err != nil {
					return nil, err
				}
				b, _ := json.Marshal(r)
				return mcp.NewToolResultText(string(b)), nil
			},
			"roots": func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				r, err := server.ServerFromContext(ctx).RequestRoots(ctx, mcp.ListRootsRequest{})
				if err != nil {
					return nil, err
				}
				return mcp.NewToolResultText(r.Roots[0].URI), nil
			},
		})
		e := newTestEngine(t, n, stdioServer("s"))
		root, rootURI := "/work/proj", "file:///work/proj"
		if runtime.GOOS == "windows" { // the drive after a third slash, not as the host
			root, rootURI = `C:\work\proj`, "file:///C:/work/proj"
		}
		setServers(e, &config.Resolved{Servers: []model.Server{stdioServer("s")}, ProjectRoot: root})
		e.opts.Elicit, _ = ElicitPolicy("accept-defaults")
		mustStart(t, e)
		current(t, e, "s")
		res, err := e.CallTool(context.Background(), "s", "ask", nil, nil)
		if err != nil || !strings.Contains(res.Content[0].Text, `"action":"accept"`) || !strings.Contains(res.Content[0].Text, `"Ada"`) {
			t.Fatalf("elicit: %+v %v", res, err)
		}
		res, err = e.CallTool(context.Background(), "s", "roots", nil, nil)
		if err != nil || res.Content[0].Text != rootURI {
			t.Fatalf("roots: %+v %v", res, err)
		}
		e.opts.Elicit = nil
		res, err = e.CallTool(context.Background(), "s", "ask", nil, nil)
		if err != nil || !strings.Contains(res.Content[0].Text, `"action":"decline"`) {
			t.Fatalf("no handler: %+v %v", res, err)
		}
	})
}

func TestSessionExpiredReinitAndRetryOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var calls atomic.Int32
		n := newFakeNet()
		n.servers["s"] = toolServer(map[string]server.ToolHandlerFunc{
			"t": func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				if calls.Add(1) == 1 {
					return nil, errors.New("session expired")
				}
				return mcp.NewToolResultText("ok"), nil
			},
		})
		e := newTestEngine(t, n, stdioServer("s"))
		mustStart(t, e)
		current(t, e, "s")
		res, err := e.CallTool(context.Background(), "s", "t", nil, nil)
		if err != nil || res.Content[0].Text != "ok" || n.last("s").reinit != 1 || calls.Load() != 2 {
			t.Fatalf("res %+v err %v reinit %d calls %d", res, err, n.last("s").reinit, calls.Load())
		}
	})
}

func TestSessionExpiredRetriedOnlyOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var calls atomic.Int32
		n := newFakeNet()
		n.servers["s"] = toolServer(map[string]server.ToolHandlerFunc{
			"t": func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				calls.Add(1)
				return nil, errors.New("session expired")
			},
		})
		e := newTestEngine(t, n, stdioServer("s"))
		mustStart(t, e)
		current(t, e, "s")
		_, err := e.CallTool(context.Background(), "s", "t", nil, nil)
		if err == nil || calls.Load() != 2 || n.last("s").reinit != 1 {
			t.Fatalf("err %v, calls %d, reinit %d; want an error after exactly one retry", err, calls.Load(), n.last("s").reinit)
		}
	})
}

func TestSessionExpiredWithoutReinitReconnectsAndRetries(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var calls atomic.Int32
		n := newFakeNet()
		n.reinitErr["s"] = errors.New("sse sessions cannot be re-initialized")
		n.servers["s"] = toolServer(map[string]server.ToolHandlerFunc{
			"t": func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				if calls.Add(1) == 1 {
					return nil, errors.New("session expired")
				}
				return mcp.NewToolResultText("ok"), nil
			},
		})
		e := newTestEngine(t, n, stdioServer("s"))
		mustStart(t, e)
		current(t, e, "s")
		first := n.last("s")
		res, err := e.CallTool(context.Background(), "s", "t", nil, nil)
		if err != nil || res.Content[0].Text != "ok" || calls.Load() != 2 {
			t.Fatalf("res %+v err %v calls %d", res, err, calls.Load())
		}
		synctest.Wait() // the old connection is closed in the background
		if n.opened("s") != 2 || !first.isClosed() {
			t.Fatalf("opens %d, first closed %v", n.opened("s"), first.isClosed())
		}
		if s := current(t, e, "s"); s.State != model.StateConnected {
			t.Fatalf("state %s", s.State)
		}
	})
}

func TestTransientErrorsReconnectAfterThree(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := newFakeNet()
		n.servers["s"] = toolServer(map[string]server.ToolHandlerFunc{
			"t": func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return nil, errors.New("connection reset by peer")
			},
		})
		e := newTestEngine(t, n, stdioServer("s"))
		mustStart(t, e)
		current(t, e, "s")
		time.Sleep(time.Minute)
		for i := 1; i <= 3; i++ {
			if _, err := e.CallTool(context.Background(), "s", "t", nil, nil); err == nil {
				t.Fatal("no error")
			}
			s := current(t, e, "s")
			if i < 3 && s.State != model.StateConnected {
				t.Fatalf("after %d errors: %s", i, s.State)
			}
			if i == 3 && (s.State != model.StatePending || s.Attempt != 1 || !strings.Contains(s.ErrorDetail, "3 errors in a row")) {
				t.Fatalf("after 3 errors: %s attempt %d %q", s.State, s.Attempt, s.ErrorDetail)
			}
		}
		time.Sleep(time.Second)
		if s := current(t, e, "s"); s.State != model.StateConnected || n.opened("s") != 2 {
			t.Fatalf("reconnect: %s, opens %d", s.State, n.opened("s"))
		}
	})
}

func TestCallTimeoutCancelAndDenied(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cancelled := make(chan struct{}, 2)
		n := newFakeNet()
		n.servers["s"] = toolServer(map[string]server.ToolHandlerFunc{
			"hang": func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				<-ctx.Done()
				cancelled <- struct{}{}
				return nil, ctx.Err()
			},
			"rm": func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return mcp.NewToolResultText("removed"), nil
			},
		})
		e := newTestEngineEnv(t, n, map[string]string{"MCP_TOOL_TIMEOUT": "5000"}, stdioServer("s"))
		setServers(e, &config.Resolved{Servers: []model.Server{stdioServer("s")}, Permissions: policy.Permissions{Deny: []string{"mcp__s__rm"}}})
		mustStart(t, e)
		current(t, e, "s")
		start := time.Now()
		_, err := e.CallTool(context.Background(), "s", "hang", nil, nil)
		if err == nil || !strings.Contains(err.Error(), "MCP_TOOL_TIMEOUT") || time.Since(start) != 5*time.Second {
			t.Fatalf("timeout: %v after %s", err, time.Since(start))
		}
		<-cancelled
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(time.Second, cancel)
		_, err = e.CallTool(ctx, "s", "hang", nil, nil)
		if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "cancelled") {
			t.Fatalf("cancel: %v", err)
		}
		<-cancelled
		if s := current(t, e, "s"); s.State != model.StateConnected {
			t.Errorf("a timeout or cancel must not break the connection: %s", s.State)
		}
		tools := current(t, e, "s").Tools
		for _, tl := range tools {
			if tl.Name == "rm" && !tl.Denied {
				t.Error("rm not flagged denied")
			}
		}
		if _, err := e.CallTool(context.Background(), "s", "rm", nil, nil); !errors.Is(err, ErrDenied) || !strings.HasPrefix(err.Error(), "calling rm on s: mcp__s__rm is denied by a permission rule (") {
			t.Fatalf("denied: %v, want it to name the call, the server and the rule", err)
		}
		before := e.Snapshot()
		// Lifting the rule takes effect on reload, without reconnecting.
		setServers(e, &config.Resolved{Servers: []model.Server{stdioServer("s")}})
		if err := e.Reload(context.Background()); err != nil {
			t.Fatal(err)
		}
		if res, err := e.CallTool(context.Background(), "s", "rm", nil, nil); err != nil || res.Content[0].Text != "removed" {
			t.Fatalf("after lifting the rule: %+v %v", res, err)
		}
		for _, tl := range mustServer(t, before, "s").Tools {
			if tl.Name == "rm" && !tl.Denied {
				t.Error("an earlier snapshot was modified")
			}
		}
	})
}

// fakeAuth records what the engine asks of an Authenticator.
type fakeAuth struct {
	needs  atomic.Bool
	marked atomic.Int32
	url    string
	// io stands for the cache file I/O of NeedsAuth and MarkNeedsAuth.
	io func()
	// fail, when set, is what Authenticate returns.
	fail error
}

func (a *fakeAuth) HTTPClient(model.Server) *http.Client { return nil }
func (a *fakeAuth) Headers(context.Context, model.Server) (map[string]string, error) {
	return nil, nil
}

func (a *fakeAuth) NeedsAuth(model.Server) bool {
	if a.io != nil {
		a.io()
	}
	return a.needs.Load()
}

func (a *fakeAuth) MarkNeedsAuth(model.Server) {
	if a.io != nil {
		a.io()
	}
	a.marked.Add(1)
	a.needs.Store(true)
}

func (a *fakeAuth) Warnings() []string { return []string{"tokens stored in a file"} }

func (a *fakeAuth) Authenticate(_ context.Context, _ model.Server, show func(string)) error {
	if a.fail != nil {
		return a.fail
	}
	show(a.url)
	a.needs.Store(false)
	return nil
}

// TestAuthenticateErrorIsSaidOnce: a failed sign-in comes back as the
// cause alone; the caller ("authenticate r: …" in the TUI, "signing in to
// r: …" in the CLI) names the server once, not three times.
func TestAuthenticateErrorIsSaidOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n, srv := signInNet()
		e := newTestEngine(t, n, srv)
		cause := errors.New("the server did not ask for sign-in")
		e.opts.Auth = &fakeAuth{fail: cause}
		mustStart(t, e)
		err := e.Authenticate(context.Background(), "r")
		if !errors.Is(err, cause) || err.Error() != cause.Error() {
			t.Errorf("Authenticate = %q, want the cause alone", err)
		}
	})
}

func TestAuthenticateConnects(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n, srv := signInNet()
		e := newTestEngine(t, n, srv)
		auth := &fakeAuth{url: "https://auth.example.com/authorize?x"}
		e.opts.Auth = auth
		mustStart(t, e)
		if s := current(t, e, "r"); s.State != model.StateNeedsAuth || auth.marked.Load() != 1 {
			t.Fatalf("state %s marked %d", s.State, auth.marked.Load())
		}
		if w := e.Snapshot().Warnings; len(w) != 1 {
			t.Errorf("warnings %v", w)
		}
		// Cached needs-auth: a reload does not contact the server again.
		n.set(func() { n.fail["r"] = nil; n.servers["r"] = demoServer })
		srv.Hash = "new"
		setServers(e, &config.Resolved{Servers: []model.Server{srv}})
		if err := e.Reload(context.Background()); err != nil {
			t.Fatal(err)
		}
		if s := current(t, e, "r"); s.State != model.StateNeedsAuth || n.opened("r") != 1 {
			t.Fatalf("cached needs-auth: %s opens %d", s.State, n.opened("r"))
		}
		if err := e.Authenticate(context.Background(), "r"); err != nil {
			t.Fatal(err)
		}
		if s := current(t, e, "r"); s.State != model.StateConnected {
			t.Fatalf("after auth: %s %s", s.State, s.Error)
		}
		if err := e.Authenticate(context.Background(), "nope"); !errors.Is(err, ErrUnknownServer) {
			t.Errorf("unknown: %v", err)
		}
	})
}

func TestExtraServersEnableDisable(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := newFakeNet()
		n.servers["demo"] = demoServer
		e := newTestEngine(t, n)
		cfg := model.ServerConfig{Type: model.TransportSDK, Name: "demo"}
		e.opts.Extra = []model.Server{{Name: "demo", Raw: cfg, Config: cfg}}
		mustStart(t, e)
		s := current(t, e, "demo")
		if s.State != model.StateConnected || s.Scope != model.ScopeDynamic || s.Hash == "" {
			t.Fatalf("extra: %s scope %s hash %q", s.State, s.Scope, s.Hash)
		}
		if err := e.Disable(context.Background(), "demo"); err != nil {
			t.Fatal(err)
		}
		if s := current(t, e, "demo"); s.State != model.StateDisabled || !n.last("demo").isClosed() {
			t.Fatalf("after disable: %s", s.State)
		}
		if err := e.Enable(context.Background(), "all"); err != nil {
			t.Fatal(err)
		}
		if s := current(t, e, "demo"); s.State != model.StateConnected {
			t.Fatalf("after enable: %s", s.State)
		}
		if err := e.Enable(context.Background(), "nope"); !errors.Is(err, ErrUnknownServer) {
			t.Errorf("unknown: %v", err)
		}
	})
}

// stuckSession never finishes closing until its context ends.
type stuckSession struct{ *fakeSession }

func (s stuckSession) Close(ctx context.Context) error {
	<-ctx.Done()
	return s.fakeSession.Close(ctx)
}

func TestCloseWithinOneSecond(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := newFakeNet()
		var servers []model.Server
		for _, name := range []string{"a", "b", "c", "d"} {
			n.servers[name] = demoServer
			servers = append(servers, stdioServer(name))
		}
		e := newTestEngine(t, n, servers...)
		open := e.open
		e.open = func(ctx context.Context, name string, cfg model.ServerConfig, o connOptions) (session, error) {
			s, err := open(ctx, name, cfg, o)
			if err != nil {
				return nil, err
			}
			return stuckSession{s.(*fakeSession)}, nil
		}
		mustStart(t, e)
		synctest.Wait()
		start := time.Now()
		if err := e.Close(); err != nil {
			t.Logf("close: %v", err)
		}
		if d := time.Since(start); d > time.Second {
			t.Fatalf("Close took %s", d)
		}
		if _, ok := <-e.Updates(); ok {
			// a final snapshot may be pending; the channel must then close
			if _, ok := <-e.Updates(); ok {
				t.Error("Updates not closed")
			}
		}
	})
}

func mustServer(t *testing.T, s Snapshot, name string) ServerSnapshot {
	t.Helper()
	x, ok := serverSnap(s, name)
	if !ok {
		t.Fatalf("no server %s", name)
	}
	return x
}

// TestAuthCacheIOOutsideEngineLock checks that the Authenticator's
// needs-auth cache (file I/O) is never consulted or written while the
// engine's mutex is held: the fake's "I/O" probes that mutex. It also covers a 401
// answered to a tool call (needs-auth, not a reconnect) and a terminal call
// error (reconnect at once).
func TestAuthCacheIOOutsideEngineLock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := newFakeNet()
		n.fail["r"] = authErr{}
		n.servers["c"] = toolServer(map[string]server.ToolHandlerFunc{
			"t401": func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return nil, errors.New("HTTP 401 unauthorized")
			},
		})
		n.servers["d"] = toolServer(map[string]server.ToolHandlerFunc{
			"gone": func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return nil, errors.New("connection refused")
			},
		})
		remote := func(name string) model.Server {
			s := stdioServer(name)
			s.Config = model.ServerConfig{Type: model.TransportHTTP, URL: "https://example.com/" + name}
			return s
		}
		r, c, d := remote("r"), remote("c"), stdioServer("d")
		e := newTestEngine(t, n, r, c, d)
		auth := &fakeAuth{}
		var underLock atomic.Int32
		auth.io = func() {
			// sync.Mutex blocking is invisible to synctest, so probe
			// instead of blocking: a mutex held by our caller never frees,
			// one held by another goroutine frees within microseconds; two
			// million yields (seconds on a loaded machine) tell them apart.
			for range 2_000_000 {
				if e.mu.TryLock() {
					e.mu.Unlock()
					return
				}
				runtime.Gosched()
			}
			underLock.Add(1)
		}
		e.opts.Auth = auth
		mustStart(t, e)
		if s := current(t, e, "r"); s.State != model.StateNeedsAuth || auth.marked.Load() != 1 {
			t.Fatalf("r: state %s, marked %d", s.State, auth.marked.Load())
		}
		current(t, e, "c")
		// A 401 on a call: needs-auth, recorded, connection closed.
		if _, err := e.CallTool(context.Background(), "c", "t401", nil, nil); err == nil {
			t.Fatal("t401: no error")
		}
		if s := current(t, e, "c"); s.State != model.StateNeedsAuth || auth.marked.Load() != 2 || !n.last("c").isClosed() {
			t.Fatalf("c after 401: state %s, marked %d, closed %v", s.State, auth.marked.Load(), n.last("c").isClosed())
		}
		// A terminal error on a call: reconnect at once (not after three).
		time.Sleep(time.Minute) // not a crash loop
		if _, err := e.CallTool(context.Background(), "d", "gone", nil, nil); err == nil {
			t.Fatal("gone: no error")
		}
		if s := current(t, e, "d"); s.State != model.StatePending || s.Attempt != 1 {
			t.Fatalf("d after a terminal error: state %s attempt %d", s.State, s.Attempt)
		}
		// The cached verdict is read on reload, outside the lock too.
		r.Hash = "changed"
		setServers(e, &config.Resolved{Servers: []model.Server{r, c, d}})
		if err := e.Reload(context.Background()); err != nil {
			t.Fatal(err)
		}
		if s := current(t, e, "r"); s.State != model.StateNeedsAuth || n.opened("r") != 1 {
			t.Fatalf("r after reload: state %s, opens %d", s.State, n.opened("r"))
		}
		if k := underLock.Load(); k > 0 {
			t.Errorf("%d needs-auth cache calls made while holding the engine mutex", k)
		}
	})
}

func TestCallErrorIsASentence(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := newFakeNet()
		n.servers["s"] = toolServer(map[string]server.ToolHandlerFunc{
			"boom": func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return nil, errors.New("database is on fire")
			},
		})
		e := newTestEngine(t, n, stdioServer("s"))
		e.errs = transportErrorOps()
		mustStart(t, e)
		current(t, e, "s")
		_, err := e.CallTool(context.Background(), "s", "boom", nil, nil)
		var ce *CallError
		if !errors.As(err, &ce) || err.Error() != "calling boom on s: the server answered with an error: internal error: database is on fire" {
			t.Fatalf("err = %q (%T)", err, err)
		}
		if !strings.Contains(ce.Err.Error(), "database is on fire") {
			t.Errorf("cause lost: %v", ce.Err)
		}
	})
}

// signInNet is a network where the remote server "r" answers 401 until
// signed in, and r's definition.
func signInNet() (*fakeNet, model.Server) {
	n := newFakeNet()
	n.fail["r"] = authErr{}
	srv := stdioServer("r")
	srv.Config = model.ServerConfig{Type: model.TransportHTTP, URL: "https://example.com/mcp"}
	return n, srv
}

// TestDeniedForUnreadableRulesNamesTheCall: when a settings file's rules
// cannot be read, a refused call says which call it refused and on which
// server before the cause (an agent of serve sees only this sentence),
// and the TUI's own forms, whose screen shows the server, the cause alone.
func TestDeniedForUnreadableRulesNamesTheCall(t *testing.T) {
	cause := "/h/settings.json:1:18: invalid JSON: unexpected end of file — the permission rules there cannot be read, so every tool is denied until it is fixed"
	err := &DeniedError{Server: "flood02", Name: "add", Tool: "mcp__flood02__add", Rule: cause, Unreadable: true}
	if got, want := err.Error(), "calling add on flood02: "+cause+" (mcp__flood02__add was not called)"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	form := &DeniedError{Tool: "mcp__flood02__add", Rule: cause, Unreadable: true}
	if got, want := form.Error(), cause+" (mcp__flood02__add was not called)"; got != want {
		t.Errorf("form: got %q, want %q", got, want)
	}
}
