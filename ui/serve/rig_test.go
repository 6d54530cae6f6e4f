package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/transports"
)

// waitLimit bounds every wait of these tests (real processes under -race
// on a shared machine); reaching it fails the test.
const waitLimit = 60 * time.Second

// rig is a gateway over a real engine whose servers are faultserver
// processes, in a private home and config directory.
type rig struct {
	t    *testing.T
	gw   *Gateway
	log  *lockedBuffer
	load model.LoadOptions
}

// lockedBuffer is the person's log, written by the gateway's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// fault is a faultserver definition with extra flags and environment.
func fault(args []string, env map[string]string) map[string]any {
	d := map[string]any{"command": faultBin}
	if len(args) > 0 {
		d["args"] = args
	}
	if len(env) > 0 {
		d["env"] = env
	}
	return d
}

// newRig starts a gateway on servers (name → definition), given as
// --mcp-config would give them. edit may change the engine options.
func newRig(t *testing.T, servers map[string]any, o Options, edit func(*engine.Options)) *rig {
	t.Helper()
	dir := t.TempDir()
	cfg, err := json.Marshal(map[string]any{"mcpServers": servers})
	if err != nil {
		t.Fatal(err)
	}
	load := model.LoadOptions{
		Cwd: filepath.Join(dir, "proj"), Home: dir, ConfigDir: filepath.Join(dir, "config", "mcpdeck"),
		ManagedDir: filepath.Join(dir, "managed"), Dynamic: []string{string(cfg)},
		LookupEnv: func(k string) (string, bool) {
			if k == "PATH" {
				return os.LookupEnv(k)
			}
			return "", false
		},
	}
	for _, d := range []string{load.Cwd, load.ConfigDir, load.ManagedDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	eo := engine.Options{Load: load, Factory: transports.NewFactory(), CacheDir: filepath.Join(dir, "cache")}
	if edit != nil {
		edit(&eo)
	}
	r := &rig{t: t, log: &lockedBuffer{}, load: load}
	o.Log = r.log
	gw, err := New(t.Context(), eo, o)
	if err != nil {
		t.Fatal(err)
	}
	r.gw = gw
	t.Cleanup(func() {
		if err := gw.Close(); err != nil {
			t.Logf("closing the gateway: %v", err)
		}
	})
	return r
}

// waitFor waits until cond holds for the gateway (checked under its lock
// after every change), failing the test after waitLimit.
func (r *rig) waitFor(what string, cond func(g *Gateway) bool) {
	r.t.Helper()
	deadline := time.NewTimer(waitLimit)
	defer deadline.Stop()
	for {
		r.gw.mu.Lock()
		ok, ch := cond(r.gw), r.gw.changed
		r.gw.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-ch:
		case <-deadline.C:
			r.t.Fatalf("gave up waiting for %s; log:\n%s", what, r.log)
		}
	}
}

// state is the named server's state in the last snapshot applied (under
// the gateway's lock, inside waitFor).
func state(g *Gateway, name string) model.State {
	for _, s := range g.snap.Servers {
		if s.Name == name {
			return s.State
		}
	}
	return model.StateDisabled
}

// agent is an MCP client talking to the gateway, and what it was sent.
type agent struct {
	*client.Client
	notes chan mcp.JSONRPCNotification
}

// agentOptions are the client's: a pinned 2025-11-25 (the protocol agents
// speak today, with server-to-client requests), plus opts.
func agentOptions(opts []client.ClientOption) []client.ClientOption {
	return append([]client.ClientOption{client.WithProtocolVersion(mcp.ProtocolVersion20251125)}, opts...)
}

// start initializes c and keeps every notification it gets.
func startAgent(t *testing.T, c *client.Client) *agent {
	t.Helper()
	a := &agent{Client: c, notes: make(chan mcp.JSONRPCNotification, 1024)}
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		select {
		case a.notes <- n:
		default:
		}
	})
	if err := c.Start(t.Context()); err != nil { // the transport keeps this context
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), waitLimit)
	defer cancel()
	req := mcp.InitializeRequest{}
	req.Params.ClientInfo = mcp.Implementation{Name: "serve-test", Version: "1"}
	if _, err := c.Initialize(ctx, req); err != nil {
		t.Fatal(err)
	}
	return a
}

// httpAgent connects over streamable HTTP (httptest) with the token.
func (r *rig) httpAgent(opts ...client.ClientOption) *agent {
	r.t.Helper()
	const token = "a-test-token-long-enough"
	base := r.serveHTTP(HTTPOptions{Token: token})
	tr, err := transport.NewStreamableHTTP(base+"/mcp", transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + token}))
	if err != nil {
		r.t.Fatal(err)
	}
	c := client.NewClient(tr, agentOptions(opts)...)
	r.t.Cleanup(func() { _ = c.Close() }) // before the listener stops (cleanups run last first)
	return startAgent(r.t, c)
}

// serveHTTP runs the gateway's HTTP listener on a free loopback port until
// the test ends, and returns its base URL.
func (r *rig) serveHTTP(h HTTPOptions) string {
	r.t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		r.t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.gw.ServeHTTP(ctx, ln, h) }()
	r.t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			r.t.Errorf("ServeHTTP: %v", err)
		}
	})
	return "http://" + ln.Addr().String()
}

// stdioAgent connects over a pipe pair, as an agent that started mcpdeck
// serve would.
func (r *rig) stdioAgent(opts ...client.ClientOption) *agent {
	r.t.Helper()
	toGW, fromAgent := io.Pipe()
	toAgent, fromGW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := r.gw.ServeStdio(context.Background(), toGW, fromGW)
		_ = fromGW.Close()
		done <- err
	}()
	c := client.NewClient(transport.NewIO(toAgent, fromAgent, nil), agentOptions(opts)...)
	r.t.Cleanup(func() {
		_ = c.Close() // closes fromAgent: the gateway reads EOF
		if err := <-done; err != nil {
			r.t.Errorf("ServeStdio: %v", err)
		}
		_ = toAgent.Close()
	})
	return startAgent(r.t, c)
}

// names lists what tools/list offers.
func (a *agent) toolNames(t *testing.T) []string {
	t.Helper()
	res, err := a.ListTools(t.Context(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, tl := range res.Tools {
		out = append(out, tl.Name)
	}
	return out
}

// call calls a tool and returns its text, and whether it was an error.
func (a *agent) call(t *testing.T, name string, args map[string]any) (string, bool) {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = name, args
	res, err := a.CallTool(t.Context(), req)
	if err != nil {
		t.Fatalf("calling %s: %v", name, err)
	}
	return resultText(res), res.IsError
}

func resultText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// waitTools lists the tools until cond holds, waiting for a
// tools/list_changed between tries: the agent only learns of a change from
// that notification.
func (a *agent) waitTools(t *testing.T, what string, cond func([]string) bool) []string {
	t.Helper()
	for {
		names := a.toolNames(t)
		if cond(names) {
			return names
		}
		a.note(t, string(mcp.MethodNotificationToolsListChanged), what)
	}
}

// note waits for a notification with method (while waiting for what),
// failing after waitLimit.
func (a *agent) note(t *testing.T, method, what string) mcp.JSONRPCNotification {
	t.Helper()
	deadline := time.NewTimer(waitLimit)
	defer deadline.Stop()
	for {
		select {
		case n := <-a.notes:
			if n.Method == method {
				return n
			}
		case <-deadline.C:
			t.Fatalf("no %s within %s, waiting for %s", method, waitLimit, what)
		}
	}
}

// snapOf is a snapshot listing servers by name only.
func snapOf(names ...string) engine.Snapshot {
	var s engine.Snapshot
	for _, n := range names {
		s.Servers = append(s.Servers, engine.ServerSnapshot{Name: n})
	}
	return s
}
