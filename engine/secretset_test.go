package engine

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/transports"
)

// TestExpandedArgumentMaskedInLogsStderrAndInstructions: a value ${KEY}
// put into a stdio server's positional argument, which the server prints
// on stderr, repeats in its instructions and sends in a log message, is
// masked in the snapshot (the TUI's log tab and stderr, mcp list --json,
// the bundle), in what Options.OnLog receives (--log-level, mcpdeck logs)
// and in the recorded traffic.
func TestExpandedArgumentMaskedInLogsStderrAndInstructions(t *testing.T) {
	bin := needFaultServer(t)
	const key = "arg-key-5e2b8d71c4"
	var mu sync.Mutex
	var logged []LogEntry
	e := realEngine(t, map[string]any{"s": map[string]any{"command": bin, "args": []string{"-say", "${KEY}"}}},
		map[string]string{"KEY": key}, func(o *Options) {
			o.OnLog = func(_ string, l LogEntry) {
				mu.Lock()
				logged = append(logged, l)
				mu.Unlock()
			}
		})
	if err := e.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	await(t, e, "s", "connected", inState(model.StateConnected))
	if _, err := e.CallTool(t.Context(), "s", "log", map[string]any{"text": "logging " + key}, nil); err != nil {
		t.Fatal(err)
	}
	s := await(t, e, "s", "the log message", func(s ServerSnapshot) bool { return len(s.Logs) > 0 })
	all, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	frames, _ := e.Traffic("s")
	for _, f := range frames {
		all = append(all, f.Body...)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, l := range logged {
		all = append(all, l.Data...)
	}
	if strings.Contains(string(all), key) {
		t.Errorf("the key is shown: %s", all)
	}
	if s.Logs[0].Data != "logging ****" || len(logged) == 0 || logged[0].Data != "logging ****" ||
		!strings.Contains(s.Instructions, "****") || !strings.Contains(strings.Join(s.StderrTail, "\n"), "saying ****") {
		t.Errorf("logs %+v, OnLog %+v, instructions %q, stderr %q", s.Logs, logged, s.Instructions, s.StderrTail)
	}
}

// TestListTextsAreMasked: a server that writes its own secret into a
// tool's description (faultserver -leak-env puts the env value there, as
// a careless server prints "uses key …") has it masked like its
// instructions: the snapshot, so mcp list --json, tools, the TUI and
// serve's tools/list, never show it.
func TestListTextsAreMasked(t *testing.T) {
	bin := needFaultServer(t)
	const key = "env-key-7c1d93ab20"
	e := realEngine(t, map[string]any{"s": map[string]any{"command": bin, "args": []string{"-leak-env", "TOKEN"}, "env": map[string]string{"TOKEN": "${KEY}"}}},
		map[string]string{"KEY": key}, nil)
	if err := e.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	s := await(t, e, "s", "connected", inState(model.StateConnected))
	var leak *Tool
	for i := range s.Tools {
		if s.Tools[i].Name == "leak" {
			leak = &s.Tools[i]
		}
	}
	if leak == nil || leak.Description != "uses key ****" {
		t.Fatalf("the leak tool: %+v", leak)
	}
	all, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(all), key) {
		t.Errorf("the key is shown: %s", all)
	}
}

// TestStderrLogIsMasked: a server that prints its own ${VAR} secret on
// stderr has it masked in its log file in the cache directory, as in the
// snapshot's stderr tail: nothing reaches the disk unmasked.
func TestStderrLogIsMasked(t *testing.T) {
	bin := needFaultServer(t)
	const key = "env-key-5b2e81cd47"
	e := realEngine(t, map[string]any{"s": map[string]any{"command": bin, "args": []string{"-leak-env", "TOKEN"}, "env": map[string]string{"TOKEN": "${KEY}"}}},
		map[string]string{"KEY": key}, nil)
	if err := e.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	await(t, e, "s", "the leak on stderr", func(s ServerSnapshot) bool {
		return strings.Contains(strings.Join(s.StderrTail, "\n"), "****")
	})
	if err := e.Close(); err != nil { // the server stops: its log is complete
		t.Fatal(err)
	}
	b, err := os.ReadFile(transports.LogPath(filepath.Join(e.opts.CacheDir, "logs"), "s"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), key) || !strings.Contains(string(b), "****") {
		t.Errorf("the log file holds %q", b)
	}
}
