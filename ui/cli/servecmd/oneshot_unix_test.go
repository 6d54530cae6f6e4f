//go:build unix

package servecmd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// waitLimit bounds each wait of these tests (real processes on a shared
// machine); reaching it fails the test.
const waitLimit = 60 * time.Second

// TestOneShotCallThroughServe: mcpdeck as a one-shot client of mcpdeck
// serve (`mcpdeck call deck ev__echo`, deck being `mcpdeck serve` over
// ev and fa) calls ev's tool while ev is still connecting. The fault
// server ev is held back by a FIFO until the test lets it start:
//
//   - the first time (cold: serve never saw ev), once the client asked
//     deck for its tools: deck's first list waits for ev, so it holds
//     ev__echo;
//   - the second time (warm), only once the client's tools/call reached
//     deck: the list came from what deck remembered of ev, and the call
//     waited for ev to connect.
//
// Before issue 33 the warm run failed "has no tool": deck answered after
// a second with fa's tools only.
func TestOneShotCallThroughServe(t *testing.T) {
	e := clitest.NewEnv(t)
	fs := clitest.BuildFaultServer(t, t.TempDir())
	fifo := filepath.Join(t.TempDir(), "ev-gate")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	// Held open for reading and writing, so ev's read waits for a byte
	// (not for a writer to come and go).
	gate, err := os.OpenFile(fifo, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer gate.Close()
	inner := filepath.Join(e.Home, "deck.json")
	writeJSON(t, inner, map[string]any{"mcpServers": map[string]any{
		"ev": map[string]any{"command": fs, "args": []string{"-gate", fifo}},
		"fa": map[string]any{"command": fs},
	}})
	cacheDir := filepath.Join(e.Home, ".cache")
	outer, err := json.Marshal(map[string]any{"mcpServers": map[string]any{"deck": map[string]any{
		"command": clitest.Binary, "args": []string{"--mcp-config", inner, "serve"},
		"env": map[string]string{"HOME": e.Home, "XDG_CONFIG_HOME": e.Config, "XDG_CACHE_HOME": cacheDir},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, run := range []struct{ name, letEvStartOn string }{{"cold", "tools/list"}, {"warm", "tools/call"}} {
		t.Run(run.name, func(t *testing.T) {
			if run.name == "warm" {
				// The cold run's serve has exited: what it remembered of ev
				// and fa is on disk, or the warm run would wait for ev in
				// vain (the gate opens only on tools/call).
				kept, _ := filepath.Glob(filepath.Join(cacheDir, "mcpdeck", "lists", "lists-*.json"))
				if len(kept) != 2 {
					t.Fatalf("after the cold run, serve remembered the lists of %d servers, want 2 (ev, fa): %q", len(kept), kept)
				}
			}
			trace := filepath.Join(t.TempDir(), "trace.jsonl")
			sent := traceWatch(t, trace, "deck", run.letEvStartOn)
			cmd := e.Command("--mcp-config", string(outer), "--trace", trace, "call", "deck", "ev__echo", "text=through serve")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			deadline := time.NewTimer(waitLimit)
			defer deadline.Stop()
			stop := func(why string) {
				_ = cmd.Process.Kill()
				<-done
				t.Fatalf("%s\nstdout:\n%s\nstderr:\n%s", why, stdout.String(), stderr.String())
			}
			select {
			case <-sent:
				if _, err := gate.Write([]byte{1}); err != nil { // ev may start now
					t.Fatal(err)
				}
			case err := <-done:
				t.Fatalf("mcpdeck call ended (%v) before it sent %s to deck\nstdout:\n%s\nstderr:\n%s", err, run.letEvStartOn, stdout.String(), stderr.String())
			case <-deadline.C:
				stop("mcpdeck call sent no " + run.letEvStartOn + " to deck within " + waitLimit.String())
			}
			select {
			case err := <-done:
				if err != nil || strings.TrimSpace(stdout.String()) != "through serve" {
					t.Fatalf("mcpdeck call deck ev__echo: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
				}
			case <-deadline.C:
				stop("mcpdeck call did not end within " + waitLimit.String())
			}
		})
	}
}

// writeJSON writes v to path as JSON.
func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// traceWatch returns a channel closed once the --trace file at path
// holds a request of method to server, told by the file's changes
// (fsnotify), not by looking again and again. It stops with the test.
func traceWatch(t *testing.T, path, server, method string) <-chan struct{} {
	t.Helper()
	w, err := fsnotify.NewWatcher()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Add(filepath.Dir(path)); err != nil {
		_ = w.Close()
		t.Fatal(err)
	}
	found := make(chan struct{})
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		for {
			select {
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				if ev.Name == path && traceHas(path, server, method) {
					close(found)
					for range w.Events { // until the watcher closes
					}
					return
				}
			case _, ok := <-w.Errors:
				if !ok {
					return
				}
			}
		}
	}()
	t.Cleanup(func() { _ = w.Close(); <-ended })
	return found
}

// traceHas reports whether the trace at path holds a request of method to
// server.
func traceHas(path, server, method string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		var l struct{ Server, Kind, Method string }
		if json.Unmarshal(sc.Bytes(), &l) == nil && l.Server == server && l.Kind == "request" && l.Method == method {
			return true
		}
	}
	return false
}
