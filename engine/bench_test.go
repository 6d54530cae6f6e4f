package engine

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/transports"
)

// awaitAll waits until every server has left pending.
func awaitAll(b *testing.B, e *Engine, n int) {
	b.Helper()
	timeout := time.After(5 * time.Minute)
	for {
		s := e.Snapshot()
		done := 0
		for _, x := range s.Servers {
			switch x.State {
			case model.StateConnected:
				done++
			case model.StateFailed, model.StateNeedsAuth, model.StateDisabled:
				b.Fatalf("%s: %s %s", x.Name, x.State, x.Error)
			case model.StatePending:
			}
		}
		if done == n && len(s.Servers) == n {
			return
		}
		select {
		case <-e.Updates():
		case <-timeout:
			b.Fatalf("%d of %d connected", done, n)
		}
	}
}

// BenchmarkConnect100Stdio connects 100 stdio faultservers through the
// engine (batch limit 3, tools listed) and, as the baseline, through
// transports directly with the same parallelism (open + tools/list). The
// difference per connection is the engine's overhead.
func BenchmarkConnect100Stdio(b *testing.B) {
	bin := needFaultServer(b)
	const n = 100
	servers := map[string]any{}
	for i := range n {
		servers[fmt.Sprintf("s%03d", i)] = map[string]any{"command": bin}
	}
	b.Run("engine", func(b *testing.B) {
		for b.Loop() {
			e := realEngine(b, servers, nil, nil)
			if err := e.Start(context.Background()); err != nil {
				b.Fatal(err)
			}
			awaitAll(b, e, n)
			b.StopTimer()
			_ = e.Close()
			b.StartTimer()
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*n), "µs/server")
	})
	b.Run("direct", func(b *testing.B) {
		f := transports.NewFactory()
		cfg := model.ServerConfig{Command: bin}
		for b.Loop() {
			var wg sync.WaitGroup
			slots := make(chan struct{}, 3)
			conns := make([]*transports.Conn, n)
			for i := range n {
				wg.Go(func() {
					slots <- struct{}{}
					defer func() { <-slots }()
					c, err := f.Open(context.Background(), fmt.Sprintf("s%03d", i), cfg, transports.Options{})
					if err != nil {
						b.Error(err)
						return
					}
					if _, err := c.Client().ListTools(context.Background(), mcp.ListToolsRequest{}); err != nil {
						b.Error(err)
					}
					conns[i] = c
				})
			}
			wg.Wait()
			b.StopTimer()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			for _, c := range conns {
				if c != nil {
					wg.Go(func() { _ = c.Close(ctx) })
				}
			}
			wg.Wait()
			cancel()
			b.StartTimer()
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*n), "µs/server")
	})
}

// BenchmarkIdleRemoteHeap measures the heap held per connected streamable
// HTTP server (the server runs in a separate process, so only the client
// side is counted) and the goroutines each keeps.
func BenchmarkIdleRemoteHeap(b *testing.B) {
	url := httpFaultServer(b)
	const n = 50
	servers := map[string]any{}
	for i := range n {
		servers[fmt.Sprintf("r%03d", i)] = map[string]any{"type": "http", "url": url}
	}
	var perServer, goroutines float64
	for b.Loop() {
		b.StopTimer()
		e := realEngine(b, servers, nil, nil)
		base := heapBytes()
		g0 := runtime.NumGoroutine()
		b.StartTimer()
		if err := e.Start(context.Background()); err != nil {
			b.Fatal(err)
		}
		awaitAll(b, e, n)
		b.StopTimer()
		time.Sleep(100 * time.Millisecond) // let GET streams settle; a benchmark, not a test
		perServer = float64(heapBytes()-base) / n
		goroutines = float64(runtime.NumGoroutine()-g0) / n
		_ = e.Close()
		b.StartTimer()
	}
	b.ReportMetric(perServer, "heapB/server")
	b.ReportMetric(goroutines, "goroutines/server")
}

func heapBytes() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// BenchmarkToolCall compares a tools/call through the engine (schema
// validation, error policy, result processing) with mcp-go's client called
// directly, both over the in-process transport.
func BenchmarkToolCall(b *testing.B) {
	args := map[string]any{"a": 2, "b": 3}
	b.Run("direct", func(b *testing.B) {
		c := directDemoClient(b)
		ctx := context.Background()
		for b.Loop() {
			req := mcp.CallToolRequest{}
			req.Params.Name = "add"
			req.Params.Arguments = args
			if _, err := c.CallTool(ctx, req); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("engine", func(b *testing.B) {
		e := demoEngine(b)
		ctx := context.Background()
		for b.Loop() {
			if _, err := e.CallTool(ctx, "demo", "add", args, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkToolCallInterleaved alternates the two calls of BenchmarkToolCall
// within each iteration and times each, so that load from other processes
// and the order of sub-benchmarks weigh on both alike (on a shared machine
// the separate sub-benchmarks drift by ±20 %). It reports both per-call
// times and the engine's overhead in percent.
func BenchmarkToolCallInterleaved(b *testing.B) {
	args := map[string]any{"a": 2, "b": 3}
	ctx := context.Background()
	c := directDemoClient(b)
	e := demoEngine(b)
	var direct, engine time.Duration
	for b.Loop() {
		t0 := time.Now()
		req := mcp.CallToolRequest{}
		req.Params.Name = "add"
		req.Params.Arguments = args
		if _, err := c.CallTool(ctx, req); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if _, err := e.CallTool(ctx, "demo", "add", args, nil); err != nil {
			b.Fatal(err)
		}
		direct += t1.Sub(t0)
		engine += time.Since(t1)
	}
	b.ReportMetric(float64(direct.Nanoseconds())/float64(b.N), "direct-ns/call")
	b.ReportMetric(float64(engine.Nanoseconds())/float64(b.N), "engine-ns/call")
	b.ReportMetric(100*(float64(engine)/float64(direct)-1), "overhead-%")
}

// directDemoClient is mcp-go's in-process client on demoServer, initialized.
func directDemoClient(b *testing.B) *client.Client {
	b.Helper()
	ctx := context.Background()
	c, err := client.NewInProcessClient(demoServer())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = c.Close() })
	if err := c.Start(ctx); err != nil {
		b.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.ProtocolVersion20251125
	if _, err := c.Initialize(ctx, init); err != nil {
		b.Fatal(err)
	}
	return c
}

// demoEngine is a real engine with demoServer built in, connected.
func demoEngine(b *testing.B) *Engine {
	b.Helper()
	cfg := model.ServerConfig{Type: model.TransportSDK, Name: "demo"}
	e := realEngine(b, map[string]any{}, nil, func(o *Options) {
		o.Builtins = map[string]func() *server.MCPServer{"demo": demoServer}
		o.Extra = []model.Server{{Name: "demo", Raw: cfg, Config: cfg}}
	})
	if err := e.Start(context.Background()); err != nil {
		b.Fatal(err)
	}
	awaitAll(b, e, 1)
	return e
}

// BenchmarkSnapshotPublish500 measures building and publishing one
// snapshot of 500 servers with 20 tools each (the cost of every change).
func BenchmarkSnapshotPublish500(b *testing.B) {
	e := newEngine(Options{CacheDir: b.TempDir()})
	defer func() { _ = e.Close() }()
	tools := make([]Tool, 20)
	for i := range tools {
		tools[i] = Tool{Name: fmt.Sprint("t", i), ExposedName: fmt.Sprint("mcp__s__t", i)}
	}
	for i := range 500 {
		en := &entry{srv: stdioServer(fmt.Sprintf("s%03d", i))}
		e.configure(en, en.srv, nil)
		en.s.Tools = tools
		e.byName[en.srv.Name] = en
		e.order = append(e.order, en)
	}
	sortEntries(e.order)
	done := make(chan struct{})
	go func() { // a slow reader
		for range e.Updates() {
		}
		close(done)
	}()
	b.ReportAllocs()
	for b.Loop() {
		e.mu.Lock()
		e.order[0].s.Attempt++ // one server changes
		e.publishLocked()
		e.mu.Unlock()
	}
	b.StopTimer()
	_ = e.Close()
	<-done
}

// BenchmarkReload500 loads 500 servers (250 runnable, connecting through a
// fake network; 250 disabled) and publishes the first snapshot: the work
// Start does before the TUI can draw.
func BenchmarkReload500(b *testing.B) {
	n := newFakeNet()
	var servers []model.Server
	for i := range 500 {
		s := stdioServer(fmt.Sprintf("s%03d", i))
		s.Enabled = i%2 == 0
		n.block[s.Name] = true // connecting never finishes during the benchmark
		servers = append(servers, s)
	}
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		e := newEngine(Options{CacheDir: b.TempDir()})
		e.open = n.open
		e.errs = testErrorOps()
		e.lookPath = func(s string) (string, error) { return "/bin/" + s, nil }
		res := &model.Resolved{Servers: servers}
		e.load = func(model.LoadOptions) (*model.Resolved, error) { return res, nil }
		b.StartTimer()
		if err := e.Start(context.Background()); err != nil {
			b.Fatal(err)
		}
		if s := <-e.Updates(); len(s.Servers) != 500 {
			b.Fatalf("%d servers", len(s.Servers))
		}
		b.StopTimer()
		_ = e.Close()
		b.StartTimer()
	}
}
