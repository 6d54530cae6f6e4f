// Command soak runs the real mcpdeck — `serve --http` and the engine inside
// it — for a while under trouble and reports whether it lost anything:
//
//   - 51 servers on every transport (fleet.go): stdio (fault servers, the
//     demo's servers), streamable HTTP, SSE and WebSocket (fault servers
//     and the conformance reference server) and an editor's (the fake
//     editor's lock file), the remote ones behind a fault-injecting
//     loopback TCP proxy each (proxy.go: drops, resets, stalls, slow
//     reads, HTTP 5xx, 401 bursts, upstream restarts); the editor closed
//     and reopened;
//   - stdio servers that crash (a tool call exits them), hang (SIGSTOP, so
//     only mcpdeck's pings notice) and flood stderr and log notifications
//     (faults.go, agents.go);
//   - 8 agents calling tools through serve over HTTP with its token, half
//     on protocol 2026-07-28 and half on 2025-11-25 (agents.go);
//   - the project's .mcp.json edited, and it and settings.json broken
//     (invalid JSON) and restored as a person's editor would, while
//     mcpdeck's own writers (mcp add, remove, approve, reject, enable,
//     disable, secret) run two at a time on each file, every write checked
//     after it returns and at the end (writes.go).
//
// The run has four phases: warm-up (no faults: every server is called
// until mcpdeck's bounded buffers of it are full, then the start sample),
// faults, recovery (faults stopped; every server must answer again within
// its backoff) and steady (ends with the end sample). Then serve is
// stopped and /proc is searched for processes it left behind (procs.go).
// It prints one summary line, writes a JSON report (report.go) and exits 1
// naming each goal missed: lost 0, unexplained 0 (explain.go), wrong 0,
// orphans 0, writes_lost 0, memory and goroutines end ≤ 1.2 × start, every
// server recovered. No verdict rests on wall-clock luck: every timeout is
// a bound mcpdeck promises (MCP_TOOL_TIMEOUT, its backoff, MCP_TIMEOUT)
// plus a margin for a loaded machine, written where it is set (bounds.go).
//
// `make soak` runs it (SOAK_DURATION, SOAK_REPORT). Linux only: it reads
// /proc for memory, processes and their environment.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"syscall"
	"time"
)

type options struct {
	mcpdeck  string
	duration time.Duration
	report   string
	agents   int
	seed     int64
	keep     bool
	verbose  bool
	daemons  int
}

func main() {
	var o options
	flag.StringVar(&o.mcpdeck, "mcpdeck", "bin/mcpdeck", "the mcpdeck binary to soak")
	flag.DurationVar(&o.duration, "duration", 10*time.Minute, "how long the whole run takes (at least 2m)")
	flag.StringVar(&o.report, "report", "", "write the JSON report to this file (default: only the summary line)")
	flag.IntVar(&o.agents, "agents", 8, "agents calling tools through serve at once")
	flag.Int64Var(&o.seed, "seed", 0, "seed of the fault schedule and the agents' choices (0: from the clock, printed)")
	flag.IntVar(&o.daemons, "daemons", 0, "add this many stdio servers that daemonize a child (setsid): orphans unless mcpdeck ends a server's whole tree")
	flag.BoolVar(&o.keep, "keep", false, "keep the run's directory (config, logs) and print where it is")
	flag.BoolVar(&o.verbose, "v", false, "say what happens as it happens")
	flag.Parse()
	if runtime.GOOS != "linux" {
		fmt.Fprintln(os.Stderr, "soak: runs on Linux only: it reads /proc for memory, processes and their environment")
		os.Exit(2)
	}
	if o.duration < 2*time.Minute {
		fmt.Fprintln(os.Stderr, "soak: -duration must be at least 2m (warm-up, faults, recovery and a steady phase)")
		os.Exit(2)
	}
	if o.seed == 0 {
		o.seed = time.Now().UnixNano()
	}
	if abs, err := filepath.Abs(o.mcpdeck); err == nil {
		o.mcpdeck = abs
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep, err := run(ctx, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		os.Exit(1)
	}
	missed := rep.verdict()
	fmt.Println(rep.summary(missed))
	if o.report != "" {
		if err := rep.write(o.report); err != nil {
			fmt.Fprintln(os.Stderr, "soak:", err)
			os.Exit(1)
		}
	}
	if len(missed) > 0 {
		for _, m := range missed {
			fmt.Fprintln(os.Stderr, "soak: goal missed:", m)
		}
		os.Exit(1)
	}
}
