package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/platform"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/testdata/faultlaunch"
	"github.com/mcpdeck/mcpdeck/transports"
)

// faultBin is testdata/faultserver, built once per test binary (main_test.go
// removes it).
var faultBin faultlaunch.Binary

func needFaultServer(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("integration test")
	}
	bin, err := faultBin.Path()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// realEngine runs the real config loader and transports over servers given
// as an mcpServers JSON object (passed like --mcp-config).
func realEngine(t testing.TB, servers map[string]any, env map[string]string, tweak func(*Options)) *Engine {
	t.Helper()
	dir := t.TempDir()
	for _, d := range []string{"proj", "home", "cfg", "managed"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	raw, err := json.Marshal(map[string]any{"mcpServers": servers})
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{
		Load: config.LoadOptions{
			Cwd: filepath.Join(dir, "proj"), Home: filepath.Join(dir, "home"), ConfigDir: filepath.Join(dir, "cfg"),
			ManagedDir: filepath.Join(dir, "managed"), Dynamic: []string{string(raw)},
			LookupEnv: func(k string) (string, bool) {
				if v, ok := env[k]; ok {
					return v, true
				}
				return os.LookupEnv(k)
			},
		},
		Factory:  transports.NewFactory(),
		CacheDir: filepath.Join(dir, "cache"),
		Backoff:  Backoff{MaxAttempts: 5, Base: 20 * time.Millisecond, Cap: 100 * time.Millisecond},
	}
	if tweak != nil {
		tweak(&opts)
	}
	e, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
	return e
}

// awaitDeadline is how long await waits before it says what it waited
// for. It bounds nothing the product promises: it only turns a hang into a
// sentence. Listing 10 000 tools under -race on a loaded 2-core machine
// took over a minute, so it is minutes, well inside go test's 10.
const awaitDeadline = 4 * time.Minute

// await reads snapshots until ok holds for the named server, or fails after
// awaitDeadline.
func await(t testing.TB, e *Engine, name string, what string, ok func(ServerSnapshot) bool) ServerSnapshot {
	t.Helper()
	deadline := time.After(awaitDeadline)
	for {
		if s, found := serverSnap(e.Snapshot(), name); found && ok(s) {
			return s
		}
		select {
		case _, open := <-e.Updates():
			if !open {
				t.Fatalf("%s: engine closed while waiting for %s", name, what)
			}
		case <-deadline:
			s, _ := serverSnap(e.Snapshot(), name)
			t.Fatalf("%s: timed out waiting for %s; state %s error %q why %v", name, what, s.State, s.Error, reasonsText(s))
		}
	}
}

func inState(st model.State) func(ServerSnapshot) bool {
	return func(s ServerSnapshot) bool { return s.State == st }
}

func heapMB() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc >> 20
}

func TestIntegrationFaults(t *testing.T) {
	bin := needFaultServer(t)
	stdio := func(args ...string) map[string]any { return map[string]any{"command": bin, "args": args} }
	e := realEngine(t, map[string]any{
		"ok":        stdio(),
		"crash":     stdio("-exit-after", "1500ms", "-exit-code", "7"), // long enough to finish the handshake under load
		"slow":      stdio("-delay", "50ms"),
		"malformed": stdio("-malformed-first"),
		"many":      stdio("-tools", "10000", "-desc-kb", "1"),
		"huge":      stdio("-tools", "100", "-desc-kb", "60"),
		"noisy":     stdio("-stderr-mb", "100"),
		"missing":   map[string]any{"command": "mcpdeck-no-such-command-xyz"},
		"unset":     map[string]any{"command": bin, "env": map[string]string{"T": "${MCPDECK_TEST_UNSET_VAR}"}},
	}, map[string]string{"MCP_TIMEOUT": "120000"}, nil) // listing 10 000 tools under -race is slow
	if err := e.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	ok := await(t, e, "ok", "connected", inState(model.StateConnected))
	if ok.Instructions == "" || len(ok.Tools) < 10 || ok.ServerInfo.Name != "faultserver" {
		t.Errorf("ok: instructions %q, %d tools, info %+v", ok.Instructions, len(ok.Tools), ok.ServerInfo)
	}
	await(t, e, "slow", "connected", inState(model.StateConnected))

	crash := await(t, e, "crash", "crash loop", inState(model.StateFailed))
	if crash.Reason.Kind != model.ReasonCrashLoop || crash.ExitCode == nil || *crash.ExitCode != 7 {
		t.Errorf("crash: %q exit %v", crash.Error, crash.ExitCode)
	}
	mal := await(t, e, "malformed", "settled", func(s ServerSnapshot) bool { return s.State != model.StatePending })
	if mal.State == model.StateFailed && mal.Error == "" {
		t.Errorf("malformed failed without a reason")
	}
	many := await(t, e, "many", "connected", inState(model.StateConnected))
	if len(many.Tools) != maxListItems {
		t.Errorf("many: %d tools (error %q)", len(many.Tools), many.Error)
	}
	huge := await(t, e, "huge", "connected", inState(model.StateConnected))
	for _, tl := range huge.Tools {
		if len([]rune(tl.Description)) > maxTextLen+len(textsafe.TruncatedSuffix) || strings.ContainsAny(tl.Description, "\u202e\x00\x1b") {
			t.Fatalf("huge: description not capped/sanitized: %d runes", len([]rune(tl.Description)))
		}
	}
	noisy := await(t, e, "noisy", "connected", inState(model.StateConnected))
	if len(noisy.StderrTail) == 0 || len(noisy.StderrTail) > stderrTailLines {
		t.Errorf("noisy: stderr tail %d lines", len(noisy.StderrTail))
	}
	missing := await(t, e, "missing", "failed", inState(model.StateFailed))
	if !strings.Contains(reasonsText(missing), "command-not-found") {
		t.Errorf("missing: why %v", reasonsText(missing))
	}
	unset := await(t, e, "unset", "failed", inState(model.StateFailed))
	if !strings.Contains(reasonsText(unset), "MCPDECK_TEST_UNSET_VAR") {
		t.Errorf("unset: why %v", reasonsText(unset))
	}

	// The healthy server keeps working through all of that.
	ctx := context.Background()
	res, err := e.CallTool(ctx, "ok", "echo", map[string]any{"text": "hi"}, nil)
	if err != nil || res.Content[0].Text != "hi" {
		t.Fatalf("echo: %+v %v", res, err)
	}
	steps := make(chan Progress, 3)
	if _, err := e.CallTool(ctx, "ok", "progress", map[string]any{"steps": 3}, func(p Progress) { steps <- p }); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 3; i++ {
		select {
		case p := <-steps:
			if p.Total != 3 || p.Message == "" {
				t.Errorf("progress %+v", p)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("got %d of 3 progress notifications", i-1)
		}
	}
	if _, err := e.CallTool(ctx, "ok", "flood", map[string]any{"count": 20000}, nil); err != nil {
		t.Errorf("flood: %v", err)
	}
	// drop: the server closes its stdout mid-call; the call fails with a
	// clear error and the engine reconnects.
	_, err = e.CallTool(ctx, "slow", "drop", nil, nil)
	if err == nil {
		t.Fatal("drop: no error")
	}
	await(t, e, "slow", "reconnected", func(s ServerSnapshot) bool {
		return s.State == model.StateConnected && len(s.History) >= 3
	})
	// 100 MB of stderr, 10 000 tools, 6 MB of descriptions and a
	// notification flood must not pile up in memory.
	mb := heapMB()
	t.Logf("heap after the fault servers: %d MB", mb)
	if mb > 200 {
		t.Errorf("heap %d MB after the fault servers", mb)
	}
	if res, err := e.CallTool(ctx, "ok", "add", map[string]any{"a": 1, "b": 2}, nil); err != nil || res.Content[0].Text != "3" {
		t.Fatalf("add after faults: %+v %v", res, err)
	}
	if running := processesOf(bin); len(running) == 0 {
		t.Fatal("no faultserver processes found while connected: the check below would prove nothing")
	}
	start := time.Now()
	if err := e.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Close took %s", d)
	}
	if left := survivorsOf(bin); len(left) > 0 {
		t.Errorf("server processes survived Close: %v", left)
	}
}

// httpFaultServer starts faultserver on streamable HTTP and returns its URL.
func httpFaultServer(t testing.TB, args ...string) string {
	return netFaultServer(t, "-http", args...)
}

// netFaultServer starts faultserver in a network mode (-http, -sse, -ws)
// and returns the URL it listens on.
func netFaultServer(t testing.TB, mode string, args ...string) string {
	u, _ := faultlaunch.Start(t, needFaultServer(t), mode, args...)
	return u
}

func TestIntegrationHangTimesOut(t *testing.T) {
	bin := needFaultServer(t)
	e := realEngine(t, map[string]any{
		"hang": map[string]any{"command": bin, "args": []string{"-hang-init"}},
		"ok":   map[string]any{"command": bin},
	}, map[string]string{"MCP_TIMEOUT": "3000"}, nil)
	if err := e.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	await(t, e, "ok", "connected", inState(model.StateConnected))
	hang := await(t, e, "hang", "failed", inState(model.StateFailed))
	if !strings.Contains(hang.ErrorDetail, "MCP_TIMEOUT") {
		t.Errorf("hang: error %q / %q", hang.Error, hang.ErrorDetail)
	}
}

func TestIntegrationHTTPSessionExpiry(t *testing.T) {
	url := httpFaultServer(t, "-expire-after", "4")
	e := realEngine(t, map[string]any{"remote": map[string]any{"type": "http", "url": url}}, nil, nil)
	if err := e.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	await(t, e, "remote", "connected", inState(model.StateConnected))
	for i := range 8 {
		res, err := e.CallTool(context.Background(), "remote", "echo", map[string]any{"text": fmt.Sprint(i)}, nil)
		if err != nil || res.Content[0].Text != fmt.Sprint(i) {
			t.Fatalf("call %d across session expiry: %+v %v", i, res, err)
		}
	}
	if s, _ := serverSnap(e.Snapshot(), "remote"); s.State != model.StateConnected {
		t.Errorf("state %s", s.State)
	}
}

func TestIntegrationRemoteTransports(t *testing.T) {
	sse := netFaultServer(t, "-sse")
	ws := "ws" + strings.TrimPrefix(netFaultServer(t, "-ws"), "http")
	e := realEngine(t, map[string]any{
		"http": map[string]any{"type": "http", "url": httpFaultServer(t)},
		"sse":  map[string]any{"type": "sse", "url": sse},
		"ws":   map[string]any{"type": "ws", "url": ws},
		"down": map[string]any{"type": "http", "url": "http://127.0.0.1:1/mcp"},
	}, nil, nil)
	if err := e.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"http", "sse", "ws"} {
		s := await(t, e, name, "connected", inState(model.StateConnected))
		if len(s.Tools) == 0 {
			t.Errorf("%s: no tools", name)
		}
		res, err := e.CallTool(context.Background(), name, "echo", map[string]any{"text": name}, nil)
		if err != nil || res.Content[0].Text != name {
			t.Errorf("%s: echo %+v %v", name, res, err)
		}
	}
	down := await(t, e, "down", "failed", inState(model.StateFailed))
	if down.Error == "" || down.ErrorClass == "" {
		t.Errorf("down: error %q class %q", down.Error, down.ErrorClass)
	}
	t.Logf("down: %s (%s)", down.Error, down.ErrorClass)
}

func TestIntegrationElicitAndRoots(t *testing.T) {
	bin := needFaultServer(t)
	pol, err := ElicitPolicy("accept-defaults")
	if err != nil {
		t.Fatal(err)
	}
	e := realEngine(t, map[string]any{
		"stdio": map[string]any{"command": bin},
		"http":  map[string]any{"type": "http", "url": httpFaultServer(t)},
	}, nil, func(o *Options) { o.Elicit = pol })
	if err := e.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"stdio", "http"} {
		await(t, e, name, "connected", inState(model.StateConnected))
		res, err := e.CallTool(context.Background(), name, "elicit", map[string]any{"message": "name?"}, nil)
		if err != nil || res.IsError || !strings.Contains(res.Content[0].Text, "Ada") {
			t.Errorf("%s elicit: %+v %v", name, res, err)
		}
		res, err = e.CallTool(context.Background(), name, "roots", nil, nil)
		uri := platform.FileURI(e.opts.Load.Cwd)
		want := `[{"uri":"` + uri + `","name":"proj"}]`
		if err != nil || res.IsError || res.Content[0].Text != want {
			t.Errorf("%s roots: %+v %v, want the project %s", name, res, err, e.opts.Load.Cwd)
		}
	}
	// The stdio server (from --mcp-config, not the project) runs in home, and
	// learns the project through roots alone.
	home := e.opts.Load.Home
	if s, _ := serverSnap(e.Snapshot(), "stdio"); s.RunsIn != home {
		t.Errorf("stdio RunsIn = %q, want %q", s.RunsIn, home)
	}
	res, err := e.CallTool(context.Background(), "stdio", "cwd", nil, nil)
	if err != nil || res.IsError || res.Content[0].Text != home {
		t.Errorf("stdio cwd: %+v %v, want %s", res, err, home)
	}
}

func TestIntegrationBuiltinSDK(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test")
	}
	cfg := model.ServerConfig{Type: model.TransportSDK, Name: "demo"}
	e := realEngine(t, map[string]any{}, nil, func(o *Options) {
		o.Builtins = map[string]func() *server.MCPServer{"demo": demoServer}
		o.Extra = []model.Server{{Name: "demo", Raw: cfg, Config: cfg}}
	})
	if err := e.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	await(t, e, "demo", "connected", inState(model.StateConnected))
	res, err := e.CallTool(context.Background(), "demo", "mcp__demo__add", map[string]any{"a": 20, "b": 22}, nil)
	if err != nil || res.Content[0].Text != "42" {
		t.Fatalf("%+v %v", res, err)
	}
}

// TestIntegrationCloseStubbornServersWithinOneSecond closes servers that
// ignore SIGINT and SIGTERM (so only SIGKILL, 500 ms in, ends them), one
// with a grandchild, and one still in its handshake: Close must stay within
// its one-second budget and leave no process behind.
func TestIntegrationCloseStubbornServersWithinOneSecond(t *testing.T) {
	bin := needFaultServer(t)
	servers := map[string]any{"hang": map[string]any{"command": bin, "args": []string{"-hang-init"}}}
	for i := range 4 {
		servers[fmt.Sprint("stubborn", i)] = map[string]any{"command": bin, "args": []string{"-ignore-signals", "-spawn-grandchild"}}
	}
	e := realEngine(t, servers, map[string]string{"MCP_SERVER_CONNECTION_BATCH_SIZE": "5"}, nil)
	if err := e.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		await(t, e, fmt.Sprint("stubborn", i), "connected", inState(model.StateConnected))
	}
	if len(processesOf(bin)) < 9 { // 4 servers, 4 grandchildren, the hanging one
		t.Fatalf("only %d faultserver processes before Close", len(processesOf(bin)))
	}
	start := time.Now()
	if err := e.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	d := time.Since(start)
	t.Logf("Close took %s", d)
	if d > closeTimeout+200*time.Millisecond { // the budget plus scheduling slack under -race
		t.Errorf("Close took %s, want about %s at most", d, closeTimeout)
	}
	if left := survivorsOf(bin); len(left) > 0 {
		t.Errorf("processes survived Close: %v", left)
	}
}
