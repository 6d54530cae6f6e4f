package transports

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"go.uber.org/goleak"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/testdata/fakeeditor/editorlaunch"
	"github.com/mcpdeck/mcpdeck/testdata/faultlaunch"
	"github.com/mcpdeck/mcpdeck/transports/egress"
)

// faultBin is the faultserver binary built once for all tests.
var faultBin string

// editorBin is the fake editor, built by the first test that needs it.
var editorBin = faultlaunch.Binary{Package: editorlaunch.Package}

func TestMain(m *testing.M) {
	if code, ok := egress.RunHelper(os.Args[1:]); ok {
		// This binary is mcpdeck's executable here: a sandboxed server
		// with a host list runs behind it, as behind mcpdeck's main.
		os.Exit(code)
	}
	var fault faultlaunch.Binary
	bin, err := fault.Path()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		fault.Remove()
		os.Exit(2)
	}
	faultBin = bin
	code := m.Run()
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	fault.Remove()
	editorBin.Remove()
	os.Exit(code)
}

// stdioCfg runs the faultserver over stdio with args.
func stdioCfg(args ...string) model.ServerConfig {
	return model.ServerConfig{Type: model.TransportStdio, Command: faultBin, Args: args}
}

// open connects with a 20 s budget and closes the connection at cleanup.
func open(t *testing.T, cfg model.ServerConfig, opts Options) *Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	c, err := NewFactory().Open(ctx, t.Name(), cfg, opts)
	if err != nil {
		t.Fatalf("Open: %v (%s)", err, Humanize(err))
	}
	t.Cleanup(func() { _ = c.Close(context.Background()) })
	return c
}

// startNet starts the faultserver on a network transport ("-http", "-sse",
// "-ws") with a free port and returns its URL; the process is killed at
// cleanup.
func startNet(t *testing.T, mode string, args ...string) (url string, cmd *exec.Cmd) {
	t.Helper()
	return faultlaunch.Start(t, faultBin, mode, args...)
}

// recorder collects notifications by method.
type recorder struct {
	mu    sync.Mutex
	got   []mcp.JSONRPCNotification
	notes chan mcp.JSONRPCNotification
}

func newRecorder() *recorder { return &recorder{notes: make(chan mcp.JSONRPCNotification, 64)} }

func (r *recorder) on(n mcp.JSONRPCNotification) {
	r.mu.Lock()
	r.got = append(r.got, n)
	r.mu.Unlock()
	select {
	case r.notes <- n:
	default:
	}
}

func (r *recorder) count(method string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, x := range r.got {
		if x.Method == method {
			n++
		}
	}
	return n
}

// waitNote waits for a notification with the method.
func (r *recorder) waitNote(t *testing.T, method string) {
	t.Helper()
	if r.count(method) > 0 {
		return
	}
	timer := time.NewTimer(10 * time.Second)
	defer timer.Stop()
	for {
		select {
		case n := <-r.notes:
			if n.Method == method {
				return
			}
		case <-timer.C:
			t.Fatalf("no %s notification", method)
		}
	}
}

// waitCount waits until n notifications with the method arrived.
func (r *recorder) waitCount(t *testing.T, method string, n int) {
	t.Helper()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	deadline := time.NewTimer(20 * time.Second)
	defer deadline.Stop()
	for r.count(method) < n {
		select {
		case <-tick.C:
		case <-deadline.C:
			t.Fatalf("got %d %s notifications, want %d", r.count(method), method, n)
		}
	}
}

// call invokes a tool and returns its first text content.
func call(ctx context.Context, c *Conn, tool string, args map[string]any) (string, error) {
	req := mcp.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = args
	res, err := c.Client().CallTool(ctx, req)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, ct := range res.Content {
		if tc, ok := ct.(mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	if res.IsError {
		return b.String(), fmt.Errorf("tool error: %s", b.String())
	}
	return b.String(), nil
}

func mustCall(t *testing.T, c *Conn, tool string, args map[string]any) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	s, err := call(ctx, c, tool, args)
	if err != nil {
		t.Fatalf("call %s: %v", tool, err)
	}
	return s
}

// fullOpts answers elicitation with name=Grace and roots with one root.
func fullOpts(rec *recorder) Options {
	return Options{
		ClientName: "mcpdeck-test",
		Elicit: func(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
			return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{
				Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"name": "Grace"},
			}}, nil
		},
		Roots: func(context.Context) ([]mcp.Root, error) {
			return []mcp.Root{{URI: "file:///project", Name: "project"}}, nil
		},
		OnNotification: rec.on,
	}
}

// exercise runs the checks every bidirectional transport must pass.
func exercise(t *testing.T, c *Conn, rec *recorder, bidirectional bool) {
	t.Helper()
	if got := c.Init().ServerInfo.Name; got != "faultserver" {
		t.Fatalf("server name %q", got)
	}
	// The faultserver acts like a 2025-11-25 server unless run with -modern.
	if got := c.Init().ProtocolVersion; got != mcp.LATEST_LEGACY_PROTOCOL_VERSION {
		t.Fatalf("protocol version %q, want %q", got, mcp.LATEST_LEGACY_PROTOCOL_VERSION)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	tools, err := c.Client().ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatalf("ListTools: %v", err)
	}
	if len(tools.Tools) < 10 {
		t.Fatalf("only %d tools", len(tools.Tools))
	}
	if got := mustCall(t, c, "add", map[string]any{"a": 2, "b": 3}); got != "5" {
		t.Fatalf("add = %q", got)
	}
	// progress notifications reach OnNotification
	req := mcp.CallToolRequest{}
	req.Params.Name = "progress"
	req.Params.Arguments = map[string]any{"steps": 3}
	req.Params.Meta = &mcp.Meta{ProgressToken: "tok-1"}
	if _, err := c.Client().CallTool(ctx, req); err != nil {
		t.Fatalf("progress: %v", err)
	}
	rec.waitNote(t, "notifications/progress")
	mustCall(t, c, "list_changed", nil)
	rec.waitNote(t, "notifications/tools/list_changed")
	if !bidirectional {
		return
	}
	if got := mustCall(t, c, "elicit", nil); !strings.Contains(got, "Grace") || !strings.Contains(got, "accept") {
		t.Fatalf("elicit = %q", got)
	}
	var roots []mcp.Root
	if err := json.Unmarshal([]byte(mustCall(t, c, "roots", nil)), &roots); err != nil || len(roots) != 1 || roots[0].URI != "file:///project" {
		t.Fatalf("roots = %v, %v", roots, err)
	}
}
