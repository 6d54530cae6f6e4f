package ui

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"go.uber.org/goleak"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/transports"
	"github.com/mcpdeck/mcpdeck/ui/demo"
	"github.com/mcpdeck/mcpdeck/ui/styles"
)

// liveHarness drives the TUI on the real engine: Cmds run in goroutines and
// their messages are fed back; waits end on a condition or a deadline,
// never on a sleep.
type liveHarness struct {
	t   *testing.T
	m   *Model
	out chan tea.Msg
	wg  sync.WaitGroup
}

func (h *liveHarness) exec(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	h.wg.Go(func() {
		if msg := cmd(); msg != nil {
			select {
			case h.out <- msg:
			case <-h.m.env.Ctx.Done():
			}
		}
	})
}

func (h *liveHarness) deliver(msg tea.Msg) {
	if b, ok := msg.(tea.BatchMsg); ok {
		for _, c := range b {
			h.exec(c)
		}
		return
	}
	_, cmd := h.m.Update(msg)
	h.exec(cmd)
}

// until processes messages until the view shows every string.
func (h *liveHarness) until(what ...string) {
	h.t.Helper()
	deadline := time.NewTimer(20 * time.Second)
	defer deadline.Stop()
	for {
		v := h.m.View()
		ok := true
		for _, w := range what {
			ok = ok && strings.Contains(v, w)
		}
		if ok {
			return
		}
		select {
		case msg := <-h.out:
			h.deliver(msg)
		case <-deadline.C:
			h.t.Fatalf("the screen never showed %q:\n%s", what, v)
		}
	}
}

// keys types, like a person who looked at the screen before each key (a
// prompt on it is armed).
func (h *liveHarness) keys(ks ...string) {
	for _, k := range ks {
		for _, msg := range keyMsg(k) {
			h.m.View()
			if a := armPrompt(h.m); a != nil {
				h.deliver(a)
			}
			h.deliver(msg)
		}
	}
}

// startLive runs the TUI model, in a w×h window, on a real engine built
// from o with the real transports, the person's answers going through a
// bridge as in the TUI. Everything stops when the test ends, and then no
// goroutine the engine or the TUI started may still run.
func startLive(t *testing.T, o engine.Options, w, hgt int) *liveHarness {
	t.Helper()
	// registered first, so it runs last: after the engine and the bridge
	// closed, nothing the TUI started may still run
	h := &liveHarness{t: t, out: make(chan tea.Msg, 256)}
	t.Cleanup(func() {
		h.wg.Wait() // the Cmds still running (blinks, ticks) end within a second
		goleak.VerifyNone(t)
	})
	bridge := NewElicitBridge()
	o.Factory, o.Elicit, o.Sample = transports.NewFactory(), bridge.Elicit, bridge.Sample
	eng, err := engine.New(o)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() {
		cancel()
		bridge.Close()
		_ = eng.Close()
	})
	if err := eng.Start(ctx); err != nil {
		t.Fatal(err)
	}
	st := styles.New(styles.DefaultPalette(), true)
	h.m = New(eng, Options{Context: ctx, Elicit: bridge, Styles: &st})
	h.deliver(tea.WindowSizeMsg{Width: w, Height: hgt})
	h.exec(h.m.Init())
	return h
}

// liveServers is the engine's options for the mcpServers given, as
// --mcp-config passes them, in a private directory.
func liveServers(t *testing.T, servers map[string]any) engine.Options {
	t.Helper()
	dir := t.TempDir()
	raw, err := json.Marshal(map[string]any{"mcpServers": servers})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"proj", "cfg", "managed"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	return engine.Options{
		Load: config.LoadOptions{
			Cwd: filepath.Join(dir, "proj"), Home: dir, ConfigDir: filepath.Join(dir, "cfg"),
			ManagedDir: filepath.Join(dir, "managed"), Dynamic: []string{string(raw)},
			LookupEnv: func(string) (string, bool) { return "", false },
		},
		CacheDir: filepath.Join(dir, "cache"),
	}
}

// waitForR makes reconnects wait an hour, so that only r runs them.
func waitForR(o engine.Options) engine.Options {
	o.Backoff = engine.Backoff{MaxAttempts: 5, Base: time.Hour, Cap: time.Hour}
	return o
}

// needFaultBin is testdata/faultserver, or a skip in -short mode.
func needFaultBin(t *testing.T) string {
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

// TestOnTheRealEngine runs the TUI model on a real engine with in-process
// servers: a tool call through the form, and a form elicitation raised by a
// tool, answered in the TUI.
func TestOnTheRealEngine(t *testing.T) {
	dir := t.TempDir()
	var extra []model.Server
	for _, n := range []string{"notes", "survey"} {
		cfg := model.ServerConfig{Type: model.TransportSDK, Name: n}
		extra = append(extra, model.Server{Name: n, Raw: cfg, Config: cfg})
	}
	h := startLive(t, engine.Options{
		Load: config.LoadOptions{
			Cwd: filepath.Join(dir, "home", "p"), Home: filepath.Join(dir, "home"),
			ConfigDir: filepath.Join(dir, "cfg"), ManagedDir: filepath.Join(dir, "managed"),
			LookupEnv: func(string) (string, bool) { return "", false },
		},
		Builtins: demo.Builtins(), Extra: extra, CacheDir: filepath.Join(dir, "cache"),
	}, 100, 30)
	h.until("● notes", "● survey", "3 tools")

	h.keys("/", "notes", "enter", "c")
	h.until("Call a tool of notes", "add_note")
	h.keys("enter")
	h.until("Call notes › add_note", "┃ body")
	h.keys("buy milk", "enter") // mcp-go lists properties by name: body, tags, title
	h.until("┃ tags")
	h.keys("enter")
	h.until("┃ title")
	h.keys("todo", "enter")
	h.until("✓ done", `stored "todo"`)
	h.keys("esc", "esc", "/", "survey", "enter", "c", "enter")
	h.until("No arguments")
	h.keys("enter")
	h.until("survey asks (for tools/call feedback):", "How is the demo going?", "┃ Your name")
	h.keys("Ada", "enter")
	h.until("┃ rating")
	h.keys("enter")
	h.until("┃ subscribe")
	h.keys("enter")
	h.until("✓ done", "Thanks, Ada!")
}
