// Command nearfloor measures mcpdeck against the floor, in one run on the
// same machine, so a busy machine slows both sides alike:
//
//   - slow30: `mcpdeck mcp list` with 30 fault servers that each wait 1 s
//     before answering, against the floor: a program that starts the same
//     servers all at once and does the same handshake and tools/list.
//   - cpu100: the same with 100 fault servers that answer at once.
//   - tui100: the TUI (the real binary, in tmux) until its header counts
//     all 100 servers connected, against `mcpdeck mcp list` of the same.
//   - idle50: the TUI with 50 connected servers and nothing changing: the
//     share of a core it uses over -idle (floor: 0), then the CPU seconds it
//     spends while another program writes -writes times to other files in
//     its project directory (floor: 0).
//
// Runs alternate between the sides; the medians and their ratio are
// printed. It needs tmux for tui100 and idle50, and Linux for the CPU
// figures (/proc).
//
//	go run ./testdata/nearfloor -bin bin/mcpdeck -runs 5 slow30 cpu100 tui100 idle50
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"time"

	"github.com/mcpdeck/mcpdeck/testdata/faultlaunch"
)

func main() {
	bin := flag.String("bin", "bin/mcpdeck", "the mcpdeck binary to measure (make build)")
	runs := flag.Int("runs", 5, "runs of each side")
	idle := flag.Duration("idle", 20*time.Second, "how long idle50 reads the TUI's CPU use")
	writes := flag.Int("writes", 20000, "writes idle50 makes to another file in the project directory")
	flag.Parse()
	scenarios := flag.Args()
	if len(scenarios) == 0 {
		scenarios = []string{"slow30", "cpu100", "tui100", "idle50"}
	}
	if err := run(*bin, *runs, *idle, *writes, scenarios); err != nil {
		fmt.Fprintln(os.Stderr, "nearfloor:", err)
		os.Exit(1)
	}
}

func run(bin string, runs int, idle time.Duration, writes int, scenarios []string) error {
	bin, err := filepath.Abs(bin)
	if err != nil {
		return err
	}
	if _, err := os.Stat(bin); err != nil {
		return fmt.Errorf("no mcpdeck binary (make build, or -bin): %w", err)
	}
	var fb faultlaunch.Binary
	defer fb.Remove()
	fault, err := fb.Path()
	if err != nil {
		return err
	}
	for _, sc := range scenarios {
		w, err := newWorld(bin)
		if err != nil {
			return err
		}
		err = scenario(w, sc, fault, runs, idle, writes)
		w.remove()
		if err != nil {
			return fmt.Errorf("%s: %w", sc, err)
		}
	}
	return nil
}

func scenario(w *world, sc, fault string, runs int, idle time.Duration, writes int) error {
	switch sc {
	case "slow30":
		return versusFloor(w, sc, servers(fault, 30, "-start-delay", "1s"), runs)
	case "cpu100":
		return versusFloor(w, sc, servers(fault, 100), runs)
	case "tui100":
		return tuiVersusList(w, servers(fault, 100), runs)
	case "idle50":
		return idleTUI(w, servers(fault, 50), idle, writes)
	}
	return fmt.Errorf("unknown scenario (slow30, cpu100, tui100, idle50)")
}

// server is one stdio server: its command line.
type server []string

func servers(fault string, n int, args ...string) []server {
	out := make([]server, n)
	for i := range out {
		out[i] = append(server{fault}, args...)
	}
	return out
}

// versusFloor times `mcp list` and the floor, alternating.
func versusFloor(w *world, name string, ss []server, runs int) error {
	if err := w.writeServers(ss); err != nil {
		return err
	}
	var deck, floor []time.Duration
	for range runs {
		d, err := w.mcpList(len(ss))
		if err != nil {
			return err
		}
		f, err := startAll(ss)
		if err != nil {
			return err
		}
		deck, floor = append(deck, d), append(floor, f)
	}
	report(name, "mcp list", deck, "floor (all at once)", floor)
	return nil
}

// tuiVersusList times the TUI until all are connected and `mcp list`,
// alternating.
func tuiVersusList(w *world, ss []server, runs int) error {
	if err := w.writeServers(ss); err != nil {
		return err
	}
	var tui, list []time.Duration
	for range runs {
		d, err := w.tuiConnected(len(ss))
		if err != nil {
			return err
		}
		l, err := w.mcpList(len(ss))
		if err != nil {
			return err
		}
		tui, list = append(tui, d), append(list, l)
	}
	report("tui100", "TUI until all connected", tui, "mcp list", list)
	return nil
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func report(name, a string, as []time.Duration, b string, bs []time.Duration) {
	ma, mb := median(as), median(bs)
	fmt.Printf("%-7s %-24s median %6.2f s  %v\n", name, a, ma.Seconds(), rounded(as))
	fmt.Printf("%-7s %-24s median %6.2f s  %v\n", name, b, mb.Seconds(), rounded(bs))
	fmt.Printf("%-7s ratio %.2f×\n", name, ma.Seconds()/mb.Seconds())
}

func rounded(ds []time.Duration) []time.Duration {
	out := make([]time.Duration, len(ds))
	for i, d := range ds {
		out[i] = d.Round(10 * time.Millisecond)
	}
	return out
}

// errNotAll is a run in which not every server connected.
var errNotAll = errors.New("not every server connected")

// mcpList runs `mcpdeck mcp list` and times it.
func (w *world) mcpList(n int) (time.Duration, error) {
	cmd := w.command("mcp", "list")
	start := time.Now()
	out, err := cmd.Output()
	d := time.Since(start)
	if err != nil {
		return 0, fmt.Errorf("mcp list: %w", err)
	}
	if got := countConnected(out); got != n {
		return 0, fmt.Errorf("%w: mcp list shows %d of %d connected", errNotAll, got, n)
	}
	return d, nil
}

// command is mcpdeck with args in the world.
func (w *world) command(args ...string) *exec.Cmd {
	cmd := exec.Command(w.bin, append([]string{"--mcp-config", w.config}, args...)...)
	cmd.Dir = w.proj
	cmd.Env = w.env()
	return cmd
}
