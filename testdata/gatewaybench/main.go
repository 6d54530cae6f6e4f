// Command gatewaybench measures mcpdeck serve against mcp-hub (npm), each a
// process of its own over the same fault servers (testdata/faultserver), in
// one run, and prints a table:
//
//   - list: the gateway's CPU time per tools/list of 300 tools (5 servers
//     of 60), read from /proc before and after a run of lists;
//   - calls: tools/call throughput with 5 servers and 8 clients calling at
//     once, and the gateway's CPU time per call;
//   - first: the time from the gateway's start to its first tools/list
//     answer when one of two servers needs 5 s to start, and how many
//     tools it held (cold: the gateway's first run; complete means it
//     waited for the slow server);
//   - warm: the same gateway started again over the same servers (its
//     cache kept), the time from its initialize answer to its first
//     tools/list answer, and how many tools that held (the floor is every
//     tool at once).
//
// `make bench` runs it. It reports numbers and never fails on one: it exits
// non-zero only when it cannot run (no mcpdeck, a gateway that never
// answers). Without -hub (or /proc, which the CPU figures need) those
// columns say why they are empty.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/testdata/faultlaunch"
)

// token is the bearer token mcpdeck serve is given for the run.
const token = "gatewaybench-token-0123456789abcdef"

// clkTck is the kernel's clock tick (/proc/PID/stat counts CPU in ticks);
// 100 on every Linux this runs on.
const clkTck = 100

type options struct {
	mcpdeck, hub     string
	lists            int
	callFor          time.Duration
	clients, servers int
	tools            int
	slowStart        time.Duration
}

func main() {
	var o options
	flag.StringVar(&o.mcpdeck, "mcpdeck", "bin/mcpdeck", "the mcpdeck binary")
	flag.StringVar(&o.hub, "hub", "", "mcp-hub's cli.js (empty: mcp-hub is not measured)")
	flag.IntVar(&o.lists, "lists", 300, "tools/list requests per measurement")
	flag.DurationVar(&o.callFor, "call-for", 5*time.Second, "how long the clients call")
	flag.IntVar(&o.clients, "clients", 8, "clients calling at once")
	flag.IntVar(&o.servers, "servers", 5, "fault servers behind the gateway")
	flag.IntVar(&o.tools, "tools", 300, "tools offered in all (spread over the servers)")
	flag.DurationVar(&o.slowStart, "slow-start", 5*time.Second, "start delay of the slow server in the first-list measurement")
	flag.Parse()
	for _, p := range []*string{&o.mcpdeck, &o.hub} {
		if *p != "" {
			if abs, err := filepath.Abs(*p); err == nil {
				*p = abs
			}
		}
	}
	if err := run(context.Background(), o); err != nil {
		fmt.Fprintln(os.Stderr, "gatewaybench:", err)
		os.Exit(1)
	}
}

// result is one gateway's figures; an empty note means measured.
type result struct {
	listCPU  time.Duration // CPU per tools/list
	tools    int           // tools in the list measured
	callsPS  float64       // calls per second, all clients
	callCPU  time.Duration // CPU per call
	first    time.Duration // start to first tools/list answer
	firstN   int           // tools in that first answer
	warm     time.Duration // second start: initialize answer to first tools/list answer
	warmN    int           // tools in that answer
	skip     string        // why nothing was measured
	cpuNote  string        // why CPU figures are missing
	failures []string
}

func run(ctx context.Context, o options) error {
	var fb faultlaunch.Binary
	defer fb.Remove()
	fault, err := fb.Path()
	if err != nil {
		return err
	}
	if _, err := os.Stat(o.mcpdeck); err != nil {
		return fmt.Errorf("mcpdeck binary: %w (run make build)", err)
	}
	fixed, err := countTools(ctx, fault)
	if err != nil {
		return err
	}
	per := o.tools/o.servers - fixed
	if per < 0 {
		per = 0
	}
	gws := []gatewayKind{mcpdeckKind(o.mcpdeck), hubKind(o.hub)}
	results := make([]result, len(gws))
	for i, k := range gws {
		if k.skip != "" {
			results[i].skip = k.skip
			continue
		}
		results[i] = measure(ctx, o, k, fault, per, o.servers*(per+fixed))
	}
	printTable(o, gws, results)
	for i := range results {
		if results[i].skip == "" && results[i].tools == 0 {
			return fmt.Errorf("%s never listed its tools: %s", gws[i].name, strings.Join(results[i].failures, "; "))
		}
	}
	return nil
}

// countTools is how many tools a fault server offers without -tools.
func countTools(ctx context.Context, fault string) (int, error) {
	c, err := client.NewStdioMCPClient(fault, nil)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	if _, err := c.Initialize(ctx, initReq()); err != nil {
		return 0, err
	}
	res, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		return 0, err
	}
	return len(res.Tools), nil
}

// initReq is the initialize of an agent of today: protocol 2025-11-25
// (mcp-hub answers with the older version it speaks).
func initReq() mcp.InitializeRequest {
	var r mcp.InitializeRequest
	r.Params.ProtocolVersion = mcp.ProtocolVersion20251125
	r.Params.ClientInfo = mcp.Implementation{Name: "gatewaybench", Version: "1"}
	return r
}

// gatewayKind starts one gateway over servers and connects clients to it.
type gatewayKind struct {
	name  string
	skip  string
	start func(dir string, servers map[string]any, port int) (*exec.Cmd, error)
	dial  func(port int) (*client.Client, error)
}

func mcpdeckKind(bin string) gatewayKind {
	return gatewayKind{
		name: "mcpdeck serve",
		start: func(dir string, servers map[string]any, port int) (*exec.Cmd, error) {
			cfg, err := writeConfig(dir, servers)
			if err != nil {
				return nil, err
			}
			cmd := exec.Command(bin, "--mcp-config", cfg, "serve", "--http", fmt.Sprintf("127.0.0.1:%d", port))
			cmd.Env = append(isolatedEnv(dir), "MCPDECK_SERVE_TOKEN="+token)
			return cmd, nil
		},
		dial: func(port int) (*client.Client, error) {
			tr, err := transport.NewStreamableHTTP(fmt.Sprintf("http://127.0.0.1:%d/mcp", port),
				transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + token}))
			if err != nil {
				return nil, err
			}
			return client.NewClient(tr, client.WithProtocolVersion(mcp.ProtocolVersion20251125)), nil
		},
	}
}

func hubKind(cli string) gatewayKind {
	k := gatewayKind{name: "mcp-hub"}
	if cli == "" {
		k.skip = "not given (-hub)"
		return k
	}
	if _, err := os.Stat(cli); err != nil {
		k.skip = "not installed (" + cli + ")"
		return k
	}
	if _, err := exec.LookPath("node"); err != nil {
		k.skip = "no node on PATH"
		return k
	}
	k.start = func(dir string, servers map[string]any, port int) (*exec.Cmd, error) {
		cfg, err := writeConfig(dir, servers)
		if err != nil {
			return nil, err
		}
		cmd := exec.Command("node", cli, "--port", strconv.Itoa(port), "--config", cfg)
		cmd.Env = isolatedEnv(dir)
		return cmd, nil
	}
	k.dial = func(port int) (*client.Client, error) {
		tr, err := transport.NewSSE(fmt.Sprintf("http://127.0.0.1:%d/mcp", port))
		if err != nil {
			return nil, err
		}
		return client.NewClient(tr, client.WithProtocolVersion(mcp.ProtocolVersion20251125)), nil
	}
	return k
}

// isolatedEnv keeps each gateway's config, state and logs in dir.
func isolatedEnv(dir string) []string {
	return []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + dir,
		"XDG_CONFIG_HOME=" + filepath.Join(dir, "config"), "XDG_STATE_HOME=" + filepath.Join(dir, "state"),
		"XDG_CACHE_HOME=" + filepath.Join(dir, "cache"), "XDG_DATA_HOME=" + filepath.Join(dir, "data"),
	}
}

func writeConfig(dir string, servers map[string]any) (string, error) {
	b, err := json.Marshal(map[string]any{"mcpServers": servers})
	if err != nil {
		return "", err
	}
	p := filepath.Join(dir, "servers.json")
	return p, os.WriteFile(p, b, 0o600)
}

// freePort is a loopback port nothing listens on now.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// running is one started gateway.
type running struct {
	cmd    *exec.Cmd
	port   int
	k      gatewayKind
	dir    string
	ownDir bool // stop removes dir
}

func launch(k gatewayKind, servers map[string]any) (*running, error) {
	dir, err := os.MkdirTemp("", "gatewaybench-")
	if err != nil {
		return nil, err
	}
	r, err := launchIn(k, dir, servers)
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	r.ownDir = true
	return r, nil
}

// launchIn starts a gateway whose config, state and cache live in dir,
// which outlives it.
func launchIn(k gatewayKind, dir string, servers map[string]any) (*running, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	cmd, err := k.start(dir, servers, port)
	if err != nil {
		return nil, err
	}
	cmd.Dir = dir
	logf, err := os.Create(filepath.Join(dir, "stderr.log"))
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &running{cmd: cmd, port: port, k: k, dir: dir}, nil
}

// logTail is the end of the gateway's output, to say why it failed.
func (r *running) logTail() string {
	b, _ := os.ReadFile(filepath.Join(r.dir, "stderr.log"))
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	return string(b)
}

func (r *running) stop() {
	_ = r.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { _ = r.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = r.cmd.Process.Kill()
		<-done
	}
	if r.ownDir {
		_ = os.RemoveAll(r.dir)
	}
}

// connect dials until the gateway answers initialize (it may still be
// starting to listen), within limit.
func (r *running) connect(ctx context.Context, limit time.Duration) (*client.Client, error) {
	deadline := time.Now().Add(limit)
	for {
		c, err := r.k.dial(r.port)
		if err == nil {
			if err = c.Start(ctx); err == nil {
				if _, err = c.Initialize(ctx, initReq()); err == nil {
					return c, nil
				}
			}
			_ = c.Close()
		}
		if time.Now().After(deadline) {
			return nil, err
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// cpu is the process's own CPU time so far (user + system), from /proc.
func cpu(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	s := string(b)
	// Fields after the command (which may hold spaces) start past ") ".
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	if len(f) < 13 {
		return 0, errors.New("short /proc stat")
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * time.Second / clkTck, nil
}

func faultServers(fault string, n, per int) map[string]any {
	servers := map[string]any{}
	for i := 1; i <= n; i++ {
		servers[fmt.Sprintf("s%d", i)] = map[string]any{
			"command": fault,
			"args":    []string{"-tools", strconv.Itoa(per), "-one-page", "-plain-desc", "-desc-bytes", "200"},
		}
	}
	return servers
}

func measure(ctx context.Context, o options, k gatewayKind, fault string, per, want int) result {
	var res result
	fail := func(what string, err error) { res.failures = append(res.failures, what+": "+err.Error()) }
	if _, err := cpu(os.Getpid()); err != nil {
		res.cpuNote = "no /proc"
	}

	r, err := launch(k, faultServers(fault, o.servers, per))
	if err != nil {
		fail("start", err)
		return res
	}
	defer r.stop()
	c, err := r.connect(ctx, 60*time.Second)
	if err != nil {
		fail("connect", fmt.Errorf("%w\n%s", err, r.logTail()))
		return res
	}
	defer c.Close()
	// Wait until every server's tools are offered.
	deadline := time.Now().Add(60 * time.Second)
	for {
		l, err := c.ListTools(ctx, mcp.ListToolsRequest{})
		if err == nil && len(l.Tools) >= want {
			res.tools = len(l.Tools)
			break
		}
		if time.Now().After(deadline) {
			if err == nil {
				err = fmt.Errorf("%d tools of %d after 60 s", len(l.Tools), want)
			}
			fail("listing", err)
			return res
		}
		time.Sleep(50 * time.Millisecond)
	}
	if res.cpuNote == "" {
		res.listCPU = perOp(r.cmd.Process.Pid, o.lists, func() error {
			for range o.lists {
				if _, err := c.ListTools(ctx, mcp.ListToolsRequest{}); err != nil {
					return err
				}
			}
			return nil
		}, fail)
	}
	res.callsPS, res.callCPU = calls(ctx, o, r, fail)

	res.first, res.firstN, res.warm, res.warmN = firstList(ctx, o, k, fault, fail)
	return res
}

// perOp is the CPU time pid spends per operation over n operations of do.
func perOp(pid, n int, do func() error, fail func(string, error)) time.Duration {
	before, err := cpu(pid)
	if err != nil {
		fail("cpu", err)
		return 0
	}
	if err := do(); err != nil {
		fail("run", err)
		return 0
	}
	after, err := cpu(pid)
	if err != nil {
		fail("cpu", err)
		return 0
	}
	return (after - before) / time.Duration(n)
}

// calls runs o.clients clients calling echo on every server in turn for
// o.callFor, and returns calls per second and the gateway's CPU per call.
func calls(ctx context.Context, o options, r *running, fail func(string, error)) (float64, time.Duration) {
	clients := make([]*client.Client, o.clients)
	for i := range clients {
		c, err := r.connect(ctx, 10*time.Second)
		if err != nil {
			fail("call client", err)
			return 0, 0
		}
		defer c.Close()
		clients[i] = c
	}
	var n atomic.Int64
	var errOnce sync.Once
	var wg sync.WaitGroup
	before, cpuErr := cpu(r.cmd.Process.Pid)
	start := time.Now()
	stop := start.Add(o.callFor)
	for i, c := range clients {
		wg.Go(func() {
			for j := 0; time.Now().Before(stop); j++ {
				req := mcp.CallToolRequest{}
				req.Params.Name = fmt.Sprintf("s%d__echo", (i+j)%o.servers+1)
				req.Params.Arguments = map[string]any{"text": "x"}
				res, err := c.CallTool(ctx, req)
				if err == nil && res.IsError {
					err = fmt.Errorf("%s: %v", req.Params.Name, res.Content)
				}
				if err != nil {
					errOnce.Do(func() { fail("call", err) })
					return
				}
				n.Add(1)
			}
		})
	}
	wg.Wait()
	took := time.Since(start)
	after, err := cpu(r.cmd.Process.Pid)
	if cpuErr != nil || err != nil || n.Load() == 0 {
		return float64(n.Load()) / took.Seconds(), 0
	}
	return float64(n.Load()) / took.Seconds(), (after - before) / time.Duration(n.Load())
}

// firstList starts a gateway over one server that answers at once and one
// that needs o.slowStart, and times its first tools/list answer from the
// moment it was started (cold); then starts it again in the same
// directory and times the first answer from its initialize answer
// (warm). Each with the tools it held.
func firstList(ctx context.Context, o options, k gatewayKind, fault string, fail func(string, error)) (cold time.Duration, coldN int, warm time.Duration, warmN int) {
	servers := map[string]any{
		"fast": map[string]any{"command": fault},
		"slow": map[string]any{"command": fault, "args": []string{"-start-delay", o.slowStart.String()}},
	}
	dir, err := os.MkdirTemp("", "gatewaybench-first-")
	if err != nil {
		fail("first", err)
		return
	}
	defer os.RemoveAll(dir)
	once := func(what string) (fromStart, fromInit time.Duration, n int) {
		start := time.Now()
		r, err := launchIn(k, dir, servers)
		if err != nil {
			fail(what+" start", err)
			return 0, 0, 0
		}
		defer r.stop()
		c, err := r.connect(ctx, 60*time.Second)
		if err != nil {
			fail(what+" connect", err)
			return 0, 0, 0
		}
		defer c.Close()
		initialized := time.Now()
		l, err := c.ListTools(ctx, mcp.ListToolsRequest{})
		if err != nil {
			fail(what+" list", err)
			return 0, 0, 0
		}
		return time.Since(start), time.Since(initialized), len(l.Tools)
	}
	cold, _, coldN = once("first")
	_, warm, warmN = once("warm")
	return cold, coldN, warm, warmN
}

func printTable(o options, gws []gatewayKind, rs []result) {
	fmt.Printf("gateway benchmark: %d fault servers, %d tools; %d lists; %d clients calling for %s; first list with a server that starts in %s (cold: from the gateway's start; warm: its second start, from initialize)\n\n",
		o.servers, o.tools, o.lists, o.clients, o.callFor, o.slowStart)
	fmt.Printf("| %-14s | %-22s | %-14s | %-14s | %-26s | %-26s |\n", "gateway", "CPU per tools/list", "calls/s", "CPU per call", "first tools/list (cold)", "first tools/list (warm)")
	fmt.Printf("|%s|%s|%s|%s|%s|%s|\n", strings.Repeat("-", 16), strings.Repeat("-", 24), strings.Repeat("-", 16), strings.Repeat("-", 16), strings.Repeat("-", 28), strings.Repeat("-", 28))
	for i, r := range rs {
		if r.skip != "" {
			fmt.Printf("| %-14s | %-22s | %-14s | %-14s | %-26s | %-26s |\n", gws[i].name, r.skip, "", "", "", "")
			continue
		}
		list := fmt.Sprintf("%.2f ms (%d tools)", ms(r.listCPU), r.tools)
		if r.cpuNote != "" {
			list = r.cpuNote
		}
		fmt.Printf("| %-14s | %-22s | %-14.0f | %-14s | %-26s | %-26s |\n", gws[i].name, list, r.callsPS,
			fmt.Sprintf("%.0f µs", float64(r.callCPU)/float64(time.Microsecond)),
			fmt.Sprintf("%.2f s (%d tools)", r.first.Seconds(), r.firstN),
			fmt.Sprintf("%.1f ms (%d tools)", ms(r.warm), r.warmN))
		for _, f := range r.failures {
			fmt.Printf("  %s: %s\n", gws[i].name, f)
		}
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
