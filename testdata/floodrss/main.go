// Command floodrss measures what a flood of elicitation requests costs the
// TUI: it runs the real engine and the TUI model in a headless Bubble Tea
// program (rendering to nowhere, as often as on a terminal), connects one
// fault server started with -elicit-flood N, waits until the server has
// its answers (or -for passes), and prints the process's peak resident
// size (VmHWM, Linux) and its goroutines. Nobody answers the prompts, as
// with a person away from the screen.
//
//	go run ./testdata/floodrss -n 10000
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/testdata/faultlaunch"
	"github.com/mcpdeck/mcpdeck/transports"
	"github.com/mcpdeck/mcpdeck/ui"
)

func main() {
	n := flag.Int("n", 10000, "elicitation requests the server sends at once")
	want := flag.Int("want", -1, "answers to wait for (default n minus the engine's limit of waiting requests)")
	limit := flag.Duration("for", 2*time.Minute, "give up waiting for the answers after this long")
	flag.Parse()
	if *want < 0 {
		*want = *n - engine.MaxPendingAsks
	}
	if err := run(*n, *want, *limit); err != nil {
		fmt.Fprintln(os.Stderr, "floodrss:", err)
		os.Exit(1)
	}
}

func run(n, want int, limit time.Duration) error {
	var bin faultlaunch.Binary
	defer bin.Remove()
	path, err := bin.Path()
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "floodrss-")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(dir) }()
	raw, err := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"flood": map[string]any{"command": path, "args": []string{"-elicit-flood", fmt.Sprint(n)}},
	}})
	if err != nil {
		return err
	}
	for _, d := range []string{"proj", "cfg", "managed"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o700); err != nil {
			return err
		}
	}
	bridge := ui.NewElicitBridge()
	eng, err := engine.New(engine.Options{
		Load: config.LoadOptions{
			Cwd: filepath.Join(dir, "proj"), Home: dir, ConfigDir: filepath.Join(dir, "cfg"),
			ManagedDir: filepath.Join(dir, "managed"), Dynamic: []string{string(raw)},
		},
		Factory: transports.NewFactory(), CacheDir: filepath.Join(dir, "cache"),
		Elicit: bridge.Elicit, Sample: bridge.Sample,
	})
	if err != nil {
		return err
	}
	defer func() { _ = eng.Close() }()
	defer bridge.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := eng.Start(ctx); err != nil {
		return err
	}
	m := ui.New(eng, ui.Options{Context: ctx, Elicit: bridge})
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutSignalHandler())
	done := make(chan error, 1)
	go func() {
		_, err := p.Run()
		done <- err
	}()
	p.Send(tea.WindowSizeMsg{Width: 120, Height: 40})
	start := time.Now()
	if err := connected(ctx, eng, limit); err != nil {
		return err
	}
	wctx, wcancel := context.WithTimeout(ctx, limit)
	peak := make(chan int)
	go func() { peak <- peakGoroutines(wctx) }()
	res, err := eng.CallTool(wctx, "flood", "flood_answers", map[string]any{"want": want}, nil)
	wcancel()
	most := <-peak
	tally := "no tally: " + fmt.Sprint(err)
	if err == nil && len(res.Content) > 0 {
		tally = res.Content[0].Text
	}
	elapsed := time.Since(start)
	goroutines := runtime.NumGoroutine()
	hwm, err := peakRSS()
	if err != nil {
		return err
	}
	p.Quit()
	<-done
	fmt.Printf("flood of %d elicitation requests, TUI not answering\n", n)
	fmt.Printf("answers (wanted %d): %s\n", want, tally)
	fmt.Printf("took %v; goroutines at most %d during the flood, %d after; peak RSS (VmHWM) %s\n",
		elapsed.Round(time.Millisecond), most, goroutines, hwm)
	return nil
}

// connected polls the snapshot until the server is connected.
func connected(ctx context.Context, eng *engine.Engine, limit time.Duration) error {
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(limit)
	for {
		for _, s := range eng.Snapshot().Servers {
			if s.Name == "flood" && s.State == model.StateConnected {
				return nil
			}
		}
		select {
		case <-tick.C:
		case <-deadline:
			return fmt.Errorf("the fault server did not connect within %v", limit)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// peakGoroutines samples the number of goroutines every millisecond until
// ctx ends and returns the most it saw.
func peakGoroutines(ctx context.Context) int {
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	most := 0
	for {
		most = max(most, runtime.NumGoroutine())
		select {
		case <-tick.C:
		case <-ctx.Done():
			return most
		}
	}
}

// peakRSS is the VmHWM line of /proc/self/status.
func peakRSS() (string, error) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "", fmt.Errorf("peak RSS needs Linux's /proc: %w", err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			return strings.TrimSpace(v), nil
		}
	}
	return "", fmt.Errorf("no VmHWM in /proc/self/status")
}
