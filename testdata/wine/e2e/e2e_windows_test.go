package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// world is one person's machine inside the prefix: a home, its AppData
// (where mcpdeck keeps the user's settings on Windows), a managed-config
// directory and a project directory mcpdeck runs in.
type world struct {
	t    *testing.T
	exe  string
	dir  string // the project: every command runs here
	env  []string
	user string // the user scope's settings.json
}

func newWorld(t *testing.T) *world {
	t.Helper()
	exe := os.Getenv("MCPDECK_EXE")
	if exe == "" {
		t.Fatal("MCPDECK_EXE is not set: run these tests with testdata/wine/run.sh (make test-windows)")
	}
	root := t.TempDir()
	home := filepath.Join(root, "home")
	w := &world{t: t, exe: exe, dir: filepath.Join(root, "proj")}
	for _, d := range []string{w.dir, filepath.Join(home, "AppData", "Roaming"), filepath.Join(home, "AppData", "Local"), filepath.Join(root, "managed")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	w.user = filepath.Join(home, "AppData", "Roaming", "mcpdeck", "settings.json")
	// Everything mcpdeck reads about where it lives comes from here, not
	// from the prefix's own profile.
	w.env = append(withoutVars(os.Environ(), "USERPROFILE", "APPDATA", "LOCALAPPDATA", "HOME", "MCPDECK_MANAGED_DIR", "CLAUDE_CONFIG_DIR", "MCPDECK_SERVE_TOKEN"),
		"USERPROFILE="+home,
		"APPDATA="+filepath.Join(home, "AppData", "Roaming"),
		"LOCALAPPDATA="+filepath.Join(home, "AppData", "Local"),
		"MCPDECK_MANAGED_DIR="+filepath.Join(root, "managed"),
		"CLAUDE_CONFIG_DIR="+filepath.Join(home, ".claude"),
		"NO_COLOR=1",
	)
	return w
}

func withoutVars(env []string, names ...string) []string {
	var out []string
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		drop := false
		for _, n := range names {
			drop = drop || strings.EqualFold(k, n)
		}
		if !drop {
			out = append(out, kv)
		}
	}
	return out
}

// command is mcpdeck.exe with args in w.
func (w *world) command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, w.exe, args...)
	cmd.Dir = w.dir
	cmd.Env = w.env
	return cmd
}

// run runs mcpdeck.exe to the end (at most a minute) and returns its
// stdout, stderr and error.
func (w *world) run(args ...string) (stdout, stderr string, err error) {
	ctx, cancel := context.WithTimeout(w.t.Context(), time.Minute)
	defer cancel()
	var o, e bytes.Buffer
	cmd := w.command(ctx, args...)
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	return o.String(), e.String(), err
}

// must runs mcpdeck.exe and fails the test unless it succeeds; it
// returns stdout.
func (w *world) must(args ...string) string {
	w.t.Helper()
	out, errOut, err := w.run(args...)
	if err != nil {
		w.t.Fatalf("mcpdeck %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, out, errOut)
	}
	return out
}

func mustContain(t *testing.T, what, got string, want ...string) {
	t.Helper()
	for _, s := range want {
		if !strings.Contains(got, s) {
			t.Fatalf("%s: no %q in\n%s", what, s, got)
		}
	}
}

func TestVersion(t *testing.T) {
	w := newWorld(t)
	mustContain(t, "--version", w.must("--version"), "mcpdeck version ", "go1.")
}

// TestConfigAndCalls: servers added, listed, shown, called, read and
// removed, with mcpdeck.exe itself as the stdio servers (demo-server).
func TestConfigAndCalls(t *testing.T) {
	w := newWorld(t)
	mustContain(t, "mcp add", w.must("mcp", "add", "-s", "user", "notes", "--", w.exe, "demo-server", "notes"),
		"Added stdio server notes to the user scope ("+w.user+")")
	w.must("mcp", "add", "-s", "user", "calc", "--", w.exe, "demo-server", "calculator")
	mustContain(t, "mcp list", w.must("mcp", "list"),
		"✓ calc: ", "✓ notes: ", "connected · 3 tools · 1 resource · 1 template · 1 prompt")
	mustContain(t, "mcp get", w.must("mcp", "get", "notes"),
		"Scope:          user ("+w.user+")", "Transport:      stdio", "demo-server notes", "✓ connected")
	mustContain(t, "call", w.must("call", "calc", "calculate", "op=multiply", "a=6", "b=7"), "42")
	mustContain(t, "call", w.must("call", "notes", "add_note", "title=wine", "body=runs mcpdeck"), `stored "wine"`)
	// a new process: the note above died with its server
	mustContain(t, "read", w.must("read", "notes", "notes://all"), "[resource notes://all]", "- welcome: ")
	mustContain(t, "read template", w.must("read", "notes", "notes://welcome"), "Welcome to the mcpdeck demo.")

	mustContain(t, "mcp remove", w.must("mcp", "remove", "notes", "-s", "user"), "notes")
	list := w.must("mcp", "list")
	if strings.Contains(list, "notes") || !strings.Contains(list, "✓ calc: ") {
		t.Fatalf("after mcp remove notes:\n%s", list)
	}
	if _, _, err := w.run("mcp", "get", "notes"); err == nil {
		t.Fatal("mcp get notes succeeded after it was removed")
	}
	// Beside settings.json, its backup from before the first rewrite and
	// the pins of the servers that connected (one file per definition,
	// written as settings.json is): nothing else.
	noStrays(t, filepath.Dir(w.user), "pins", "settings.json", "settings.json.backup")
	pinned, err := os.ReadDir(filepath.Join(filepath.Dir(w.user), "pins"))
	if err != nil || len(pinned) == 0 {
		t.Fatalf("pins: %v %v", pinned, err)
	}
	for _, e := range pinned {
		if !strings.HasSuffix(e.Name(), ".json") || strings.Count(e.Name(), ".") != 1 {
			t.Errorf("pins holds %s", e.Name())
		}
	}
}

// TestConcurrentWriters: eight mcpdeck.exe processes add a server each to
// the same settings.json at once; every one lands, and nothing is left
// beside the file (no temporary file, no lock sidecar).
func TestConcurrentWriters(t *testing.T) {
	w := newWorld(t)
	const n = 8
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			name := fmt.Sprintf("w%d", i)
			if out, errOut, err := w.run("mcp", "add", "-s", "user", name, "--", w.exe, "demo-server", "notes"); err != nil {
				errs <- fmt.Errorf("mcp add %s: %v\n%s%s", name, err, out, errOut)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	b, err := os.ReadFile(w.user)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("settings.json after %d writers: %v\n%s", n, err, b)
	}
	for i := range n {
		if _, ok := doc.MCPServers[fmt.Sprintf("w%d", i)]; !ok {
			t.Errorf("w%d was lost; settings.json holds:\n%s", i, b)
		}
	}
	noStrays(t, filepath.Dir(w.user), "settings.json", "settings.json.backup")
	mustContain(t, "mcp list --no-connect", w.must("mcp", "list", "--no-connect"), "w0", "w7")
}

// noStrays fails when dir holds anything but want: a temporary file or a
// lock sidecar a write left behind.
func noStrays(t *testing.T, dir string, want ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("%s holds %v, want %v", dir, got, want)
	}
}

// TestServeHTTPKillAndReconnect: mcpdeck.exe serve --http offers the
// notes demo server; mcpdeck.exe as a client calls it through serve; the
// server's process is killed (TerminateProcess), serve reconnects it live,
// and the client's next call is answered by the new process.
func TestServeHTTPKillAndReconnect(t *testing.T) {
	w := newWorld(t)
	w.must("mcp", "add", "-s", "user", "notes", "--", w.exe, "demo-server", "notes")
	const token = "wine-e2e-token-0123456789abcdef"
	w.env = append(w.env, "MCPDECK_SERVE_TOKEN="+token)

	ctx, cancel := context.WithCancel(t.Context())
	serve := w.command(ctx, "serve", "--http", "127.0.0.1:0", "--servers", "notes")
	serve.Cancel = func() error { return serve.Process.Kill() }
	stderr, err := serve.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 64)
	var log logTail
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			log.add(sc.Text())
			lines <- sc.Text()
		}
	}()
	t.Cleanup(func() {
		cancel()
		_ = serve.Wait()
		for range lines { // drain until serve's stderr closes
		}
		if t.Failed() {
			t.Logf("serve's stderr:\n%s", log.String())
		}
	})
	wait := func(what string, match func(string) bool) string {
		t.Helper()
		timeout := time.NewTimer(time.Minute)
		defer timeout.Stop()
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("serve ended before %s", what)
				}
				if match(l) {
					return l
				}
			case <-timeout.C:
				t.Fatalf("no %s from serve within a minute", what)
			}
		}
	}
	connected := func(l string) bool { return strings.Contains(l, "server notes is connected") }
	// serve says where it listens and that notes is connected in either order
	url, up := "", false
	wait("its address and notes connected", func(l string) bool {
		if u, ok := strings.CutPrefix(l, "mcpdeck serve: listening on "); ok {
			url = u
		}
		up = up || connected(l)
		return url != "" && up
	})

	// mcpdeck.exe as the client, for this run only
	client := func(args ...string) string {
		t.Helper()
		cfg := fmt.Sprintf(`{"mcpServers":{"gw":{"type":"http","url":%q,"headers":{"Authorization":"Bearer %s"}}}}`, url, token)
		return w.must(append([]string{"--mcp-config", cfg}, args...)...)
	}
	mustContain(t, "call through serve", client("call", "gw", "add_note", "title=first", "body=one"), `stored "first" (3 notes)`)

	old := childrenOf(t, uint32(serve.Process.Pid))
	if len(old) != 1 {
		t.Fatalf("serve runs %d child processes, want the notes server alone: %v", len(old), old)
	}
	killProcess(t, old[0])
	// serve says so again once the new process is connected (while it
	// reconnects it says nothing: it is still connecting)
	wait("notes reconnected", connected)

	now := childrenOf(t, uint32(serve.Process.Pid))
	if len(now) != 1 || now[0] == old[0] {
		t.Fatalf("after the kill serve runs %v (killed %d)", now, old[0])
	}
	// the new process has no "first": it is another notes server
	mustContain(t, "call after reconnect", client("call", "gw", "add_note", "title=second", "body=two"), `stored "second" (3 notes)`)
	mustContain(t, "read through serve", client("read", "gw", "notes://all"), "- second: two")
}

// logTail keeps what a process said, for a failure message.
type logTail struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *logTail) add(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b.WriteString(s + "\n")
}

func (l *logTail) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// childrenOf lists the live processes whose parent is pid (Toolhelp).
func childrenOf(t *testing.T, pid uint32) []uint32 {
	t.Helper()
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPPROCESS, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer windows.CloseHandle(snap)
	var out []uint32
	var e windows.ProcessEntry32
	e.Size = uint32(unsafe.Sizeof(e))
	for err = windows.Process32First(snap, &e); err == nil; err = windows.Process32Next(snap, &e) {
		if e.ParentProcessID == pid {
			out = append(out, e.ProcessID)
		}
	}
	if err != windows.ERROR_NO_MORE_FILES {
		t.Fatal(err)
	}
	return out
}

// killProcess ends pid as Task Manager does (TerminateProcess).
func killProcess(t *testing.T, pid uint32) {
	t.Helper()
	h, err := windows.OpenProcess(windows.PROCESS_TERMINATE|windows.SYNCHRONIZE, false, pid)
	if err != nil {
		t.Fatal(err)
	}
	defer windows.CloseHandle(h)
	if err := windows.TerminateProcess(h, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := windows.WaitForSingleObject(h, windows.INFINITE); err != nil {
		t.Fatal(err)
	}
}
