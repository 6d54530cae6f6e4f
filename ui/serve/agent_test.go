package serve

import (
	"context"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

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
func startAgent(t testing.TB, c *client.Client) *agent {
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
	return startAgent(r.t, r.httpClient(agentOptions(opts)))
}

// modernAgent connects over streamable HTTP on protocol 2026-07-28, which
// the client negotiates when nothing pins an older one.
func (r *rig) modernAgent(opts ...client.ClientOption) *agent {
	r.t.Helper()
	return r.modern(startAgent(r.t, r.httpClient(opts)))
}

// modern checks that a negotiated protocol 2026-07-28.
func (r *rig) modern(a *agent) *agent {
	r.t.Helper()
	if v := a.ProtocolVersion(); v != mcp.ProtocolVersion20260728 {
		r.t.Fatalf("negotiated %q, want 2026-07-28", v)
	}
	return a
}

// testToken is the bearer token of the rig's HTTP listeners.
const testToken = "a-test-token-long-enough"

// httpClient is a client with opts for a new HTTP listener of the gateway.
func (r *rig) httpClient(opts []client.ClientOption) *client.Client {
	r.t.Helper()
	base := r.serveHTTP(HTTPOptions{Token: testToken})
	tr, err := transport.NewStreamableHTTP(base+"/mcp", transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + testToken}))
	if err != nil {
		r.t.Fatal(err)
	}
	c := client.NewClient(tr, opts...)
	r.t.Cleanup(func() { _ = c.Close() }) // before the listener stops (cleanups run last first)
	return c
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
	return startAgent(r.t, r.stdioClient(agentOptions(opts)))
}

// modernStdioAgent is stdioAgent on protocol 2026-07-28.
func (r *rig) modernStdioAgent(opts ...client.ClientOption) *agent {
	r.t.Helper()
	return r.modern(startAgent(r.t, r.stdioClient(opts)))
}

// stdioClient is a client with opts on a new pipe pair to the gateway.
func (r *rig) stdioClient(opts []client.ClientOption) *client.Client {
	r.t.Helper()
	toGW, fromAgent := io.Pipe()
	toAgent, fromGW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := r.gw.ServeStdio(context.Background(), toGW, fromGW)
		_ = fromGW.Close()
		done <- err
	}()
	c := client.NewClient(transport.NewIO(toAgent, fromAgent, nil), opts...)
	r.t.Cleanup(func() {
		_ = c.Close() // closes fromAgent: the gateway reads EOF
		// An agent that goes away closes its end of serve's stdout too, as
		// a process's exit does: an answer serve is still writing (a
		// cancelled call's) then fails instead of waiting for a reader
		// forever, and ServeStdio, which waits for it, returns.
		_ = toAgent.Close()
		if err := <-done; err != nil {
			r.t.Errorf("ServeStdio: %v", err)
		}
	})
	return c
}

// names lists what tools/list offers.
func (a *agent) toolNames(t testing.TB) []string {
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
func (a *agent) call(t testing.TB, name string, args map[string]any) (string, bool) {
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
func (a *agent) waitTools(t testing.TB, what string, cond func([]string) bool) []string {
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
func (a *agent) note(t testing.TB, method, what string) mcp.JSONRPCNotification {
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
