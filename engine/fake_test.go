package engine

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/engine/lifecycle"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/transports"
)

// fakeSession is an in-process mcp-go connection whose loss the test
// controls.
type fakeSession struct {
	c       *client.Client
	init    *mcp.InitializeResult
	done    chan struct{}
	changed chan struct{} // one slot: stderr lines arrived
	once    sync.Once
	mu      sync.Mutex
	err     error
	closed  bool
	stderr  []string
	reinit  int
	// reinitErr makes Reinit fail, like legacy SSE.
	reinitErr error
	// deaf makes Ping go unanswered, like a hung server.
	deaf bool
}

// Ping answers at once, or never while the session is deaf.
func (f *fakeSession) Ping(ctx context.Context) error {
	f.mu.Lock()
	deaf := f.deaf
	f.mu.Unlock()
	if !deaf {
		return nil
	}
	<-ctx.Done()
	return ctx.Err()
}

// Subscribe sends resources/subscribe or unsubscribe to the in-process server.
func (f *fakeSession) Subscribe(ctx context.Context, uri string, on bool) error {
	if on {
		req := mcp.SubscribeRequest{}
		req.Params.URI = uri
		return f.c.Subscribe(ctx, req) //nolint:staticcheck // the in-process server speaks the classic protocol
	}
	req := mcp.UnsubscribeRequest{}
	req.Params.URI = uri
	return f.c.Unsubscribe(ctx, req) //nolint:staticcheck // as Subscribe
}

func (f *fakeSession) Client() *client.Client      { return f.c }
func (f *fakeSession) Init() *mcp.InitializeResult { return f.init }
func (f *fakeSession) Done() <-chan struct{}       { return f.done }
func (f *fakeSession) StderrTail(n int) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.stderr
}

// StderrChanged is signalled by addStderr, like transports' stderr ring.
func (f *fakeSession) StderrChanged() <-chan struct{} { return f.changed }

// addStderr appends a stderr line, as a chatty child would.
func (f *fakeSession) addStderr(line string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stderr = append(f.stderr[:len(f.stderr):len(f.stderr)], line)
	select {
	case f.changed <- struct{}{}:
	default:
	}
}

func (f *fakeSession) Reinit(ctx context.Context) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reinit++
	return f.reinitErr
}

func (f *fakeSession) Err() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.err
}

// kill ends the connection as if the server went away.
func (f *fakeSession) kill(err error) {
	f.mu.Lock()
	if f.err == nil {
		f.err = err
	}
	f.mu.Unlock()
	f.once.Do(func() { close(f.done) })
}

func (f *fakeSession) Close(context.Context) error {
	f.mu.Lock()
	f.closed = true
	f.mu.Unlock()
	f.kill(transports.ErrClosed)
	return f.c.Close()
}

// openInProcess connects to srv in process, wiring the engine's callbacks.
func openInProcess(ctx context.Context, srv *server.MCPServer, o connOptions) (*fakeSession, error) {
	var opts []client.ClientOption
	if o.Elicit != nil {
		opts = append(opts, client.WithElicitationHandler(elicitAdapter(o.Elicit)))
	}
	if o.Roots != nil {
		opts = append(opts, client.WithRootsHandler(rootsAdapter(o.Roots)))
	}
	c, err := client.NewInProcessClientWithOptions(srv, opts...)
	if err != nil {
		return nil, err
	}
	if o.OnNotification != nil {
		c.OnNotification(o.OnNotification)
	}
	if err := c.Start(ctx); err != nil {
		return nil, err
	}
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.ProtocolVersion20251125
	req.Params.ClientInfo = mcp.Implementation{Name: "test", Version: "1"}
	init, err := c.Initialize(ctx, req)
	if err != nil {
		_ = c.Close()
		return nil, err
	}
	return &fakeSession{c: c, init: init, done: make(chan struct{}), changed: make(chan struct{}, 1)}, nil
}

type elicitAdapter func(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error)

func (f elicitAdapter) Elicit(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	return f(ctx, req)
}

type rootsAdapter func(ctx context.Context) ([]mcp.Root, error)

func (f rootsAdapter) ListRoots(ctx context.Context, _ mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	roots, err := f(ctx)
	if err != nil {
		return nil, err
	}
	return &mcp.ListRootsResult{Roots: roots}, nil
}

// fakeNet hands out in-process sessions and records opens.
type fakeNet struct {
	mu        sync.Mutex
	servers   map[string]func() *server.MCPServer
	fail      map[string]error // open fails with this error
	reinitErr map[string]error // sessions' Reinit fails with this
	block     map[string]bool  // open blocks until ctx ends
	opens     map[string]int
	sessions  map[string][]*fakeSession
	// hook, if set, runs at the start of every open.
	hook func(name string)
}

func newFakeNet() *fakeNet {
	return &fakeNet{
		servers: map[string]func() *server.MCPServer{}, fail: map[string]error{}, reinitErr: map[string]error{},
		block: map[string]bool{}, opens: map[string]int{}, sessions: map[string][]*fakeSession{},
	}
}

func (n *fakeNet) open(ctx context.Context, name string, _ model.ServerConfig, o connOptions) (session, error) {
	n.mu.Lock()
	n.opens[name]++
	mk, fail, block, hook := n.servers[name], n.fail[name], n.block[name], n.hook
	n.mu.Unlock()
	if hook != nil {
		hook(name)
	}
	if block {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	if fail != nil {
		return nil, fail
	}
	if mk == nil {
		return nil, errors.New("connection refused")
	}
	s, err := openInProcess(ctx, mk(), o)
	if err != nil {
		return nil, err
	}
	n.mu.Lock()
	s.reinitErr = n.reinitErr[name]
	n.sessions[name] = append(n.sessions[name], s)
	n.mu.Unlock()
	return s, nil
}

func (n *fakeNet) set(f func()) { n.mu.Lock(); f(); n.mu.Unlock() }

func (n *fakeNet) opened(name string) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.opens[name]
}

func (n *fakeNet) last(name string) *fakeSession {
	n.mu.Lock()
	defer n.mu.Unlock()
	s := n.sessions[name]
	if len(s) == 0 {
		return nil
	}
	return s[len(s)-1]
}

// testErrorOps classifies the fakes' errors simply.
func testErrorOps() errorOps {
	return errorOps{
		classify: func(err error) (lifecycle.ErrClass, string) {
			var ae authErr
			switch msg := err.Error(); {
			case errors.Is(err, transports.ErrMessageTooLarge):
				return lifecycle.ClassTooLarge, "too-large"
			case errors.As(err, &ae):
				return lifecycle.ClassAuth, "auth"
			case strings.Contains(msg, "session expired"):
				return lifecycle.ClassSessionExpired, "session-expired"
			case strings.Contains(msg, "connection reset"):
				return lifecycle.ClassTransient, "transient"
			case strings.Contains(msg, "connection refused"):
				return lifecycle.ClassTerminal, "terminal"
			case strings.Contains(msg, "401"):
				return lifecycle.ClassAuth, "auth"
			}
			return lifecycle.ClassOther, "error"
		},
		humanize: func(err error) string { return err.Error() },
		broke: func(err error) bool {
			var x exitErr
			msg := err.Error()
			return errors.As(err, &x) || errors.Is(err, transports.ErrConnectionLost) ||
				strings.Contains(msg, "connection reset") || strings.Contains(msg, "connection refused")
		},
		exitCode: func(err error) (int, bool) {
			var x exitErr
			if errors.As(err, &x) {
				return int(x), true
			}
			return 0, false
		},
	}
}

type authErr struct{}

func (authErr) Error() string { return "401 unauthorized" }

type exitErr int

func (exitErr) Error() string { return "server process exited" }

// stdio returns a runnable stdio server definition.
func stdioServer(name string) model.Server {
	cfg := model.ServerConfig{Command: "true"}
	return model.Server{
		Name: name, Scope: model.ScopeUser, Source: "test", Raw: cfg, Config: cfg, Hash: "h-" + name,
		Enabled: true, Policy: model.PolicyDecision{Allowed: true},
	}
}

// newTestEngine builds an engine over fake config and network.
func newTestEngine(t *testing.T, n *fakeNet, servers ...model.Server) *Engine {
	t.Helper()
	return newTestEngineEnv(t, n, nil, servers...)
}

// newTestEngineEnv is newTestEngine with environment variables.
func newTestEngineEnv(t *testing.T, n *fakeNet, env map[string]string, servers ...model.Server) *Engine {
	t.Helper()
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	e := newEngine(Options{CacheDir: t.TempDir(), Rand: func() float64 { return 0 }, Load: config.LoadOptions{LookupEnv: lookup}})
	e.open = n.open
	e.errs = testErrorOps()
	e.findProgram = func(model.ServerConfig) error { return nil }
	cfg := &config.Resolved{Servers: servers}
	e.load = func(config.LoadOptions) (*config.Resolved, error) { return cfg, nil }
	return e
}

// setServers replaces what the fake config loader returns.
func setServers(e *Engine, res *config.Resolved) {
	e.mu.Lock()
	e.load = func(config.LoadOptions) (*config.Resolved, error) { return res, nil }
	e.mu.Unlock()
}

// serverSnap finds one server in a snapshot.
func serverSnap(s Snapshot, name string) (ServerSnapshot, bool) {
	for _, x := range s.Servers {
		if x.Name == name {
			return x, true
		}
	}
	return ServerSnapshot{}, false
}

// demoServer is an in-process server with a few tools.
func demoServer() *server.MCPServer {
	s := server.NewMCPServer("demo", "1.0", server.WithToolCapabilities(true),
		server.WithResourceCapabilities(false, true), server.WithPromptCapabilities(true))
	s.AddTool(mcp.NewTool("add", mcp.WithDescription("Adds\u202e two numbers"),
		mcp.WithNumber("a", mcp.Required()), mcp.WithNumber("b", mcp.Required()),
		mcp.WithReadOnlyHintAnnotation(true)),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			a := req.GetFloat("a", 0)
			b := req.GetFloat("b", 0)
			return mcp.NewToolResultText(formatFloat(a + b)), nil
		})
	s.AddResource(mcp.NewResource("file:///hello.txt", "hello", mcp.WithMIMEType("text/plain")),
		func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: "file:///hello.txt", MIMEType: "text/plain", Text: "hello"}}, nil
		})
	s.AddPrompt(mcp.NewPrompt("greet", mcp.WithArgument("who", mcp.RequiredArgument())),
		func(ctx context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return mcp.NewGetPromptResult("greeting", []mcp.PromptMessage{
				mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent("hello "+req.Params.Arguments["who"])),
			}), nil
		})
	return s
}

func (f *fakeSession) isClosed() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.closed
}
