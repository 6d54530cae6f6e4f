package ui

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/mcpdeck/mcpdeck/ui/contextcost"
	"github.com/mcpdeck/mcpdeck/ui/styles"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func TestMain(m *testing.M) {
	lipgloss.SetColorProfile(termenv.Ascii)
	lipgloss.SetHasDarkBackground(true)
	code := m.Run()
	faultBin.Remove()
	os.Exit(code)
}

// harness drives a Model the way Bubble Tea does: every Cmd runs in its own
// goroutine and its message is fed back into Update. It must run inside a
// synctest bubble: settle waits until every goroutine is durably blocked
// (a tick timer, a wait on the engine), so no test sleeps to wait.
type harness struct {
	t      *testing.T
	m      *Model
	eng    *fakeEngine
	bridge *ElicitBridge
	out    chan tea.Msg
	opened []string
	copied []string
	quit   bool
	// snapshots counts the snapshot messages Update was given.
	snapshots int
}

var cmdSliceType = reflect.TypeOf([]tea.Cmd(nil))

func newHarness(t *testing.T, eng *fakeEngine, w, h int) *harness {
	t.Helper()
	return newHarnessKeys(t, eng, w, h, nil)
}

// newHarnessKeys is newHarness with a key map of the test's own.
func newHarnessKeys(t *testing.T, eng *fakeEngine, w, h int, keys *KeyMap) *harness {
	t.Helper()
	hs := &harness{t: t, eng: eng, bridge: NewElicitBridge(), out: make(chan tea.Msg, 4096)}
	st := styles.New(styles.DefaultPalette(), true)
	hs.m = New(eng, Options{
		Now: func() time.Time { return t0 }, Elicit: hs.bridge, Styles: &st, Keys: keys, Tokens: testTokens,
		OpenURL:  func(_ context.Context, u string) error { hs.opened = append(hs.opened, u); return nil },
		CopyText: func(s string) error { hs.copied = append(hs.copied, s); return nil },
	})
	t.Cleanup(hs.close)
	hs.send(tea.WindowSizeMsg{Width: w, Height: h})
	hs.exec(hs.m.Init())
	hs.settle()
	return hs
}

// close ends the engine, the bridge and the model's context, then lets fake
// time run so that pending ticks and blinks finish inside the bubble.
func (h *harness) close() {
	h.m.cancel()
	h.bridge.Close()
	_ = h.eng.Close()
	time.Sleep(time.Hour)
}

func (h *harness) exec(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		if msg := cmd(); msg != nil {
			h.out <- msg
		}
	}()
}

func (h *harness) deliver(msg tea.Msg) {
	if msg == nil {
		return
	}
	if b, ok := msg.(tea.BatchMsg); ok {
		for _, c := range b {
			h.exec(c)
		}
		return
	}
	if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice && v.Type().ConvertibleTo(cmdSliceType) {
		for _, c := range v.Convert(cmdSliceType).Interface().([]tea.Cmd) {
			h.exec(c)
		}
		return
	}
	if _, ok := msg.(tea.QuitMsg); ok {
		h.quit = true
		return
	}
	if _, ok := msg.(snapshotMsg); ok {
		h.snapshots++
	}
	_, cmd := h.m.Update(msg)
	h.exec(cmd)
}

// settle feeds messages back until every goroutine is blocked.
func (h *harness) settle() {
	for {
		synctest.Wait()
		select {
		case msg := <-h.out:
			h.deliver(msg)
		default:
			return
		}
	}
}

func (h *harness) send(msgs ...tea.Msg) {
	for _, m := range msgs {
		h.deliver(m)
		h.settle()
	}
}

// keys sends each argument as a key press: named keys ("enter", "esc",
// "ctrl+d", "down", "tab") or runes typed one by one, each by a person who
// looked at the screen first: a prompt on it has been drawn and armed.
func (h *harness) keys(ks ...string) {
	for _, k := range ks {
		for _, msg := range keyMsg(k) {
			h.look()
			h.send(msg)
		}
	}
}

// burst sends keys as typed ahead, without looking at the screen between
// them: a prompt that opens meanwhile is not armed for them.
func (h *harness) burst(ks ...string) {
	for _, k := range ks {
		h.send(keyMsg(k)...)
	}
}

// look is a person looking at the screen: it is drawn, and a prompt on it
// has been there for a whole guard window with no key (armPrompt).
func (h *harness) look() {
	h.m.View()
	h.send(armPrompt(h.m))
}

// armPrompt is the message ending the guard window of the prompt on top
// of m as if no key came during it, nil when nothing is to arm.
func armPrompt(m *Model) tea.Msg {
	if m.guard.Armed() {
		return nil
	}
	return m.guard.Pending()
}

func keyMsg(k string) []tea.Msg {
	named := map[string]tea.KeyType{
		"enter": tea.KeyEnter, "esc": tea.KeyEsc, "tab": tea.KeyTab, "shift+tab": tea.KeyShiftTab,
		"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight,
		"ctrl+c": tea.KeyCtrlC, "ctrl+d": tea.KeyCtrlD, "ctrl+r": tea.KeyCtrlR, "backspace": tea.KeyBackspace,
		"space": tea.KeySpace, "pgdown": tea.KeyPgDown, "pgup": tea.KeyPgUp, "f1": tea.KeyF1, "ctrl+e": tea.KeyCtrlE,
		"ctrl+s": tea.KeyCtrlS,
	}
	if t, ok := named[k]; ok {
		return []tea.Msg{tea.KeyMsg{Type: t}}
	}
	var out []tea.Msg
	for _, r := range k {
		out = append(out, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	return out
}

// view is the screen as a person sees it: a prompt on it armed.
func (h *harness) view() string {
	h.look()
	return h.m.View()
}

// selectServer moves the list cursor to name.
func (h *harness) selectServer(name string) {
	h.t.Helper()
	h.keys("g")
	for range 50 {
		if s := h.m.list.Selected(); s != nil && s.Name == name {
			return
		}
		h.keys("j")
	}
	h.t.Fatalf("server %s not in the list", name)
}

func (h *harness) wantView(substrs ...string) {
	h.t.Helper()
	v := h.view()
	for _, s := range substrs {
		if !strings.Contains(v, s) {
			h.t.Fatalf("view lacks %q:\n%s", s, v)
		}
	}
}

// golden compares got with testdata/name.golden (-update rewrites it).
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./ui -run %s -update)", err, t.Name())
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file; run with -update if intended.\n--- got ---\n%s\n--- want ---\n%s", name, got, want)
	}
}

// inBubble runs f in a synctest bubble.
func inBubble(t *testing.T, f func(t *testing.T)) { synctest.Test(t, f) }

// screenWidth is how many terminal columns s takes (escape sequences excluded).
func screenWidth(s string) int { return ansi.StringWidth(s) }

// testTokens is one tokenizer for every test: loading it takes a while,
// so it is held for good (the TUI lets its tokenizer go after counting:
// TestTokenizerLetGoAfterCounting has one of its own).
var testTokens = heldCounter()

func heldCounter() *contextcost.Counter {
	c := &contextcost.Counter{}
	c.Hold()
	return c
}
