package transports

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/testdata/boxtest"
)

// pongServer answers each line with "pong" on a loopback port; stop
// closes it and waits for its goroutines.
func pongServer(t testing.TB) (port int, stop func()) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer c.Close()
				if _, err := bufio.NewReader(c).ReadString('\n'); err == nil {
					fmt.Fprintln(c, "pong")
				}
			}()
		}
	}()
	return ln.Addr().(*net.TCPAddr).Port, func() { _ = ln.Close(); wg.Wait() }
}

// callText calls a tool and returns its text.
func callText(t testing.TB, c *Conn, tool string, args map[string]any) string {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = tool, args
	res, err := c.Client().CallTool(t.Context(), req)
	if err != nil || len(res.Content) == 0 {
		t.Fatalf("%s: %v", tool, err)
	}
	return res.Content[0].(mcp.TextContent).Text
}

// TestSandboxedHostList: a server whose sandbox lists one loopback
// host:port reaches it through the proxy; another port of the same host
// is refused, reported to OnRefuse and written in the server's log in
// words; a direct connection, around the proxy, reaches nothing.
func TestSandboxedHostList(t *testing.T) {
	boxtest.RequireMechanism(t)
	bin := boxtest.BuildBoxServer(t, t.TempDir()) // before HOME moves: go's cache is under it
	boxtest.PlantHome(t)
	listed, stopListed := pongServer(t)
	defer stopListed()
	unlisted, stopUnlisted := pongServer(t)
	defer stopUnlisted()

	var mu sync.Mutex
	var refused []Refusal
	cfg := model.ServerConfig{Command: bin, Sandbox: &model.Sandbox{
		Profile: model.SandboxProfileDefault,
		Network: model.SandboxNetwork{Hosts: []string{fmt.Sprintf("127.0.0.1:%d", listed)}},
	}}
	c := open(t, cfg, Options{OnRefuse: func(r Refusal) { mu.Lock(); refused = append(refused, r); mu.Unlock() }})

	if got := callText(t, c, "connect", map[string]any{"target": fmt.Sprintf("127.0.0.1:%d", listed)}); got != "reply pong" {
		t.Errorf("listed host: %q", got)
	}
	got := callText(t, c, "connect", map[string]any{"target": fmt.Sprintf("127.0.0.1:%d", unlisted)})
	if !strings.HasPrefix(got, "refused: ") {
		t.Errorf("unlisted port: %q", got)
	}
	mu.Lock()
	if len(refused) != 1 || refused[0].Host != "127.0.0.1" || refused[0].Port != unlisted || refused[0].At.IsZero() {
		t.Errorf("refusals %+v", refused)
	}
	mu.Unlock()
	want := fmt.Sprintf("blocked connection to 127.0.0.1:%d at ", unlisted) // and the time
	if !slices.ContainsFunc(c.StderrTail(50), func(l string) bool { return strings.HasPrefix(l, want) }) {
		t.Errorf("log lacks %q: %q", want, c.StderrTail(50))
	}
	if got := callText(t, c, "dial", map[string]any{"addr": fmt.Sprintf("127.0.0.1:%d", listed)}); !strings.HasPrefix(got, "error: ") {
		t.Errorf("a direct connection around the proxy: %q", got)
	}
	// Behind the shim, which reaches the proxy's socket, the server itself
	// is under the socket filter: no unix socket, not even that one.
	if got := callText(t, c, "unix_connect", map[string]any{"path": "/run/mcpdeck/egress.sock"}); !strings.Contains(got, "operation not permitted") {
		t.Errorf("the server behind the shim made a unix socket: %q", got)
	}
	if got := callText(t, c, "socketpair", nil); got != "pair" {
		t.Errorf("socketpair behind the shim: %q", got)
	}
	_ = c.Close(context.Background())
}

// BenchmarkSandboxStart is what the sandbox adds to a server's start:
// start, initialize and stop the boxserver with no sandbox, the default
// one (with and without the socket filter), one with a host list (proxy,
// broker and shim), and write-project in a repository (what runs later
// found, its placeholders made and removed).
func BenchmarkSandboxStart(b *testing.B) {
	boxtest.RequireMechanism(b)
	bin := boxtest.BuildBoxServer(b, b.TempDir())
	project := benchRepository(b)
	for _, tc := range sandboxCases() {
		b.Run(tc.name, func(b *testing.B) {
			cfg, opts := model.ServerConfig{Command: bin, Sandbox: tc.box}, Options{}
			if tc.project {
				cfg.Cwd, opts.Launcher.Project = project, project
			}
			for b.Loop() {
				c, err := NewFactory().Open(b.Context(), "bench", cfg, opts)
				if err != nil {
					b.Fatal(err)
				}
				_ = c.Close(context.Background())
			}
		})
	}
}

// BenchmarkSandboxCall is what the sandbox adds to one tool call.
func BenchmarkSandboxCall(b *testing.B) {
	boxtest.RequireMechanism(b)
	bin := boxtest.BuildBoxServer(b, b.TempDir())
	for _, tc := range sandboxCases() {
		b.Run(tc.name, func(b *testing.B) {
			c, err := NewFactory().Open(b.Context(), "bench", model.ServerConfig{Command: bin, Sandbox: tc.box}, Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close(context.Background())
			req := mcp.CallToolRequest{}
			req.Params.Name = "pid"
			for b.Loop() {
				if _, err := c.Client().CallTool(b.Context(), req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func sandboxCases() []struct {
	name    string
	box     *model.Sandbox
	project bool
} {
	return []struct {
		name    string
		box     *model.Sandbox
		project bool
	}{
		{"none", nil, false},
		{"default", model.DefaultSandbox(), false},
		// The default profile without the socket filter (a listed socket
		// that does not exist lifts it and opens nothing): what the
		// filter itself costs, measured in the same run.
		{"default-unfiltered", &model.Sandbox{Profile: model.SandboxProfileDefault, Sockets: []string{"/nonexistent/bench.sock"}}, false},
		{"hosts", &model.Sandbox{Profile: model.SandboxProfileDefault, Network: model.SandboxNetwork{Hosts: []string{"example.com"}}}, false},
		{"write-project", &model.Sandbox{Profile: model.SandboxProfileWriteProject}, true},
	}
}

// benchRepository is a project that is a repository: .git with hooks and
// configuration, a few directories.
func benchRepository(b *testing.B) string {
	project := filepath.Join(b.TempDir(), "proj")
	for _, d := range []string{".git/hooks", "src/a", "docs"} {
		if err := os.MkdirAll(filepath.Join(project, d), 0o755); err != nil {
			b.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(project, ".git", "config"), []byte("[core]\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	return project
}
