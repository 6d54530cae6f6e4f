package batch_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
	"github.com/mcpdeck/mcpdeck/ui/cli"
)

// gateServer is an in-process MCP server whose "gate" tool reports each
// call's arrival and then blocks until the test opens that call's gate (or
// the call is cancelled), so tests control overlap and finishing order.
type gateServer struct {
	http      *httptest.Server
	arrived   chan int // the id of each call as it starts
	cancelled chan int // the id of each call whose context ended while blocked
	gates     map[int]chan struct{}

	mu       sync.Mutex
	inflight int
	max      int            // most gate calls in flight at once
	methods  map[string]int // requests per method
}

func newGateServer(t *testing.T, ids int) *gateServer {
	t.Helper()
	g := &gateServer{
		arrived: make(chan int, ids), cancelled: make(chan int, ids),
		gates: map[int]chan struct{}{}, methods: map[string]int{},
	}
	for i := 1; i <= ids; i++ {
		g.gates[i] = make(chan struct{})
	}
	hooks := &server.Hooks{}
	hooks.AddBeforeAny(func(_ context.Context, _ any, m mcp.MCPMethod, _ any) {
		g.mu.Lock()
		defer g.mu.Unlock()
		g.methods[string(m)]++
	})
	s := server.NewMCPServer("gates", "1", server.WithHooks(hooks), server.WithToolCapabilities(false), server.WithResourceCapabilities(false, false))
	s.AddTool(mcp.NewTool("gate", mcp.WithNumber("id", mcp.Required())), func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		id := r.GetInt("id", 0)
		gate, ok := g.gates[id]
		if !ok {
			return mcp.NewToolResultError("no such gate"), nil
		}
		g.mu.Lock()
		g.inflight++
		g.max = max(g.max, g.inflight)
		g.mu.Unlock()
		defer func() {
			g.mu.Lock()
			g.inflight--
			g.mu.Unlock()
		}()
		g.arrived <- id
		select {
		case <-gate:
			return mcp.NewToolResultText(fmt.Sprintf("gate %d", id)), nil
		case <-ctx.Done():
			g.cancelled <- id
			return nil, ctx.Err()
		}
	})
	s.AddResource(mcp.NewResource("gates://readme", "readme"), func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		return []mcp.ResourceContents{mcp.TextResourceContents{URI: "gates://readme", MIMEType: "text/plain", Text: "open the gates"}}, nil
	})
	g.http = httptest.NewServer(server.NewStreamableHTTPServer(s))
	t.Cleanup(g.http.Close)
	return g
}

// next waits for the next call to arrive; a deadline only stops a broken
// test from hanging.
func (g *gateServer) next(t *testing.T, cancel context.CancelFunc) int {
	t.Helper()
	select {
	case id := <-g.arrived:
		return id
	case <-time.After(30 * time.Second):
		cancel()
		t.Fatal("no gate call arrived")
		return 0
	}
}

// inProcessBatch runs `mcpdeck batch gates` in this process on a private
// HOME, returning the exit code and output once it ends.
func inProcessBatch(t *testing.T, ctx context.Context, g *gateServer, stdin string, args ...string) <-chan clitest.Result {
	t.Helper()
	root := t.TempDir()
	home := filepath.Join(root, "home")
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(home, ".cache"))
	t.Setenv("MCPDECK_MANAGED_DIR", filepath.Join(root, "managed"))
	proj := filepath.Join(home, "proj")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(proj)
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"gates": map[string]any{"type": "http", "url": g.http.URL + "/mcp"},
	}})
	done := make(chan clitest.Result, 1)
	go func() {
		var out, errb bytes.Buffer
		code := cli.Run(ctx, append([]string{"--mcp-config", string(cfg), "batch", "gates"}, args...), strings.NewReader(stdin), &out, &errb)
		done <- clitest.Result{Stdout: out.String(), Stderr: errb.String(), Code: code}
	}()
	return done
}

func gateLines(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, `{"tool": "gate", "arguments": {"id": %d}}`+"\n", i)
	}
	return b.String()
}

// TestBatchRunsPAtATimeInInputOrder: at -P 4 four calls are in flight on
// the one session before any is answered (serial would deadlock here: the
// test opens no gate until four have arrived), never more than four, and
// results that finish first (the later lines) are printed after the earlier
// ones.
func TestBatchRunsPAtATimeInInputOrder(t *testing.T) {
	const n = 8
	g := newGateServer(t, n)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := inProcessBatch(t, ctx, g, gateLines(n)+`{"read": "gates://readme"}`+"\n", "-P", "4")

	var first []int
	for range 4 {
		first = append(first, g.next(t, cancel))
	}
	// open the four in reverse input order: the last line finishes first
	slices.Sort(first)
	for i := len(first) - 1; i >= 0; i-- {
		close(g.gates[first[i]])
	}
	for range n - 4 {
		close(g.gates[g.next(t, cancel)])
	}
	r := <-done
	if r.Code != 0 {
		t.Fatalf("batch: %s", r)
	}
	var want strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&want, "%d: gate %d\n", i, i)
	}
	fmt.Fprintf(&want, "%d: [resource gates://readme] open the gates\n", n+1)
	if r.Stdout != want.String() {
		t.Errorf("output not in input order:\n%s\nwant:\n%s", r.Stdout, want.String())
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.max != 4 {
		t.Errorf("at most %d calls were in flight at once, want 4", g.max)
	}
	// a session starts with initialize, or server/discover on 2026-07-28
	if g.methods["initialize"]+g.methods["server/discover"] != 1 || g.methods["tools/call"] != n {
		t.Errorf("one session for the whole batch: requests per method %v", g.methods)
	}
}

// TestBatchSerialByDefault: without -P one call runs at a time.
func TestBatchSerialByDefault(t *testing.T) {
	const n = 3
	g := newGateServer(t, n)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := inProcessBatch(t, ctx, g, gateLines(n))
	for i := 1; i <= n; i++ {
		if id := g.next(t, cancel); id != i {
			t.Errorf("call %d arrived, want %d", id, i)
		}
		close(g.gates[i])
	}
	if r := <-done; r.Code != 0 {
		t.Fatalf("batch: %s", r)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.max != 1 {
		t.Errorf("%d calls were in flight at once, want 1", g.max)
	}
}

// TestBatchCtrlCCancelsInFlight: cancelling the command (Ctrl-C) cancels the
// requests in flight on the server and mcpdeck exits 130 saying so.
func TestBatchCtrlCCancelsInFlight(t *testing.T) {
	const n = 4
	g := newGateServer(t, n)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := inProcessBatch(t, ctx, g, gateLines(n), "-P", "2")
	g.next(t, cancel)
	g.next(t, cancel)
	cancel()
	r := <-done
	if r.Code != 130 || !strings.Contains(r.Stderr, "cancelled") {
		t.Errorf("after Ctrl-C: %s", r)
	}
	for range 2 {
		select {
		case <-g.cancelled:
		case <-time.After(30 * time.Second):
			t.Fatal("the server never saw an in-flight call cancelled")
		}
	}
	if strings.Count(r.Stdout, "cancelled") != 2 {
		t.Errorf("the two in-flight lines should say they were cancelled:\n%s", r.Stdout)
	}
}
