package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mcpdeck/mcpdeck/testdata/faultlaunch"
)

// world is one run's isolated machine: its home, config, cache and
// managed directories (nothing of the person's is read or written), the
// test servers' binaries, and mcpdeck serve once started.
type world struct {
	dir, home, proj, config, cache, managed, tmp string
	runID                                        string
	mcpdeck, faultBin, confBin, editorBin        string
	token                                        string
	bins                                         []*faultlaunch.Binary

	mu   sync.Mutex
	logs []*os.File
	tree lineage // serve's descendants, as seen during the run

	serve struct {
		cmd  *exec.Cmd
		port int
		done chan struct{}
		err  error
		log  string
	}
}

func newWorld(o options) (*world, error) {
	if _, err := os.Stat(o.mcpdeck); err != nil {
		return nil, fmt.Errorf("mcpdeck binary: %w (run make build)", err)
	}
	dir, err := os.MkdirTemp("", "mcpdeck-soak-")
	if err != nil {
		return nil, err
	}
	w := &world{dir: dir, mcpdeck: o.mcpdeck, runID: randomHex(8), token: "soak-" + randomHex(16)}
	w.home = filepath.Join(dir, "home")
	w.proj = filepath.Join(w.home, "proj")
	w.config = filepath.Join(dir, "config")
	w.cache = filepath.Join(dir, "cache")
	w.managed = filepath.Join(dir, "managed")
	w.tmp = filepath.Join(dir, "tmp")
	for _, d := range []string{w.proj, filepath.Join(w.config, "mcpdeck"), w.cache, w.managed, w.tmp, filepath.Join(dir, "logs")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	fault := &faultlaunch.Binary{}
	conf := &faultlaunch.Binary{Package: "github.com/mcpdeck/mcpdeck/testdata/confserver"}
	ed := &faultlaunch.Binary{Package: "github.com/mcpdeck/mcpdeck/testdata/fakeeditor"}
	w.bins = []*faultlaunch.Binary{fault, conf, ed}
	if w.editorBin, err = ed.Path(); err != nil {
		return nil, err
	}
	if w.faultBin, err = fault.Path(); err != nil {
		return nil, err
	}
	if w.confBin, err = conf.Path(); err != nil {
		return nil, err
	}
	return w, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// cleanup removes the run's files (unless keep) and the built binaries.
func (w *world) cleanup(keep bool) {
	w.mu.Lock()
	for _, f := range w.logs {
		_ = f.Close()
	}
	w.mu.Unlock()
	for _, b := range w.bins {
		b.Remove()
	}
	if !keep {
		_ = os.RemoveAll(w.dir)
	}
}

// logFile is a file under logs/ for one process's output.
func (w *world) logFile(name string) io.Writer {
	f, err := os.Create(filepath.Join(w.dir, "logs", name+".log"))
	if err != nil {
		return io.Discard
	}
	w.mu.Lock()
	w.logs = append(w.logs, f)
	w.mu.Unlock()
	return f
}

// claudeDir is where editors write their lock files (its ide directory).
func (w *world) claudeDir() string { return filepath.Join(w.home, ".claude") }

// userSettings and projectFile are the config files the run writes.
func (w *world) userSettings() string { return filepath.Join(w.config, "mcpdeck", "settings.json") }
func (w *world) projectFile() string  { return filepath.Join(w.proj, ".mcp.json") }
func (w *world) credentials() string  { return filepath.Join(w.config, "mcpdeck", "credentials.json") }

// privateState is the person's private settings of the project (approvals,
// enable/disable), wherever mcpdeck keyed it.
func (w *world) privateState() (string, error) {
	m, err := filepath.Glob(filepath.Join(w.config, "mcpdeck", "projects", "*.json"))
	if err != nil || len(m) != 1 {
		return "", fmt.Errorf("private state of the project: %d files (%v)", len(m), err)
	}
	return m[0], nil
}

// env is mcpdeck's environment: the isolated directories, the limits
// the verdicts rest on (bounds.go), the token, the debug endpoint, and
// the run's marker. D-Bus points nowhere, so the secret store is the
// 0600 credentials.json and never a keychain prompt.
func (w *world) env() []string {
	return []string{
		"HOME=" + w.home,
		"XDG_CONFIG_HOME=" + w.config,
		"XDG_CACHE_HOME=" + w.cache,
		"XDG_STATE_HOME=" + filepath.Join(w.dir, "state"),
		"XDG_DATA_HOME=" + filepath.Join(w.dir, "data"),
		"MCPDECK_MANAGED_DIR=" + w.managed,
		"TMPDIR=" + w.tmp,
		"CLAUDE_CONFIG_DIR=" + w.claudeDir(),
		"PATH=" + os.Getenv("PATH"),
		"DBUS_SESSION_BUS_ADDRESS=unix:path=" + filepath.Join(w.dir, "no-dbus"),
		"MCP_TIMEOUT=" + strconv.Itoa(int(connectTimeout.Milliseconds())),
		"MCP_TOOL_TIMEOUT=" + strconv.Itoa(int(toolTimeout.Milliseconds())),
		"MCPDECK_PING_INTERVAL=" + strconv.Itoa(int(pingInterval.Milliseconds())),
		"MCPDECK_SERVE_TOKEN=" + w.token,
		"MCPDECK_SERVE_DEBUG=1",
		runEnv + "=" + w.runID,
	}
}

// writeJSON writes v to path whole (a temporary file renamed over it).
func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(path, append(b, '\n'))
}

func writeAtomic(path string, b []byte) error {
	tmp := path + ".soak-tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// writeConfig writes both config files for the fleet.
func (w *world) writeConfig(servers []*server) error {
	user, proj := map[string]any{}, map[string]any{}
	for _, s := range servers {
		switch s.scope {
		case "project":
			proj[s.name] = s.definition(w)
		case "user":
			user[s.name] = s.definition(w)
		}
	}
	if err := writeJSON(w.userSettings(), map[string]any{"mcpServers": user}); err != nil {
		return err
	}
	return writeJSON(w.projectFile(), map[string]any{"mcpServers": proj})
}

// cli runs one mcpdeck command in the project (env adds to the world's)
// and returns its combined output.
func (w *world) cli(ctx context.Context, env []string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, w.mcpdeck, args...)
	cmd.Dir = w.proj
	cmd.Env = append(w.env(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("mcpdeck %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return string(out), nil
}

// startServe starts `mcpdeck serve --http` on a free loopback port and
// waits until /health answers.
func (w *world) startServe(ctx context.Context) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	w.serve.port = ln.Addr().(*net.TCPAddr).Port
	_ = ln.Close()
	w.serve.log = filepath.Join(w.dir, "logs", "serve.log")
	logf, err := os.Create(w.serve.log)
	if err != nil {
		return err
	}
	cmd := exec.Command(w.mcpdeck, "serve", "--http", fmt.Sprintf("127.0.0.1:%d", w.serve.port))
	cmd.Dir = w.proj
	cmd.Env = w.env()
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		return err
	}
	w.serve.cmd = cmd
	w.serve.done = make(chan struct{})
	go func() {
		w.serve.err = cmd.Wait()
		_ = logf.Close()
		close(w.serve.done)
	}()
	deadline := time.Now().Add(60 * time.Second)
	for {
		if _, err := w.health(ctx); err == nil {
			return nil
		}
		select {
		case <-w.serve.done:
			return fmt.Errorf("mcpdeck serve exited at start (%v): %s", w.serve.err, tail(w.serve.log, 1500))
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("mcpdeck serve did not answer /health within 60 s: %s", tail(w.serve.log, 1500))
		}
	}
}

func (w *world) base() string { return fmt.Sprintf("http://127.0.0.1:%d", w.serve.port) }

// health is serve's /health: servers offered and connected.
func (w *world) health(ctx context.Context) (h struct{ Servers, Connected int }, err error) {
	err = w.getJSON(ctx, "/health", &h)
	return h, err
}

// runtime is serve's /debug/runtime.
func (w *world) runtime(ctx context.Context) (r struct {
	Goroutines      int    `json:"goroutines"`
	HeapObjectBytes uint64 `json:"heap_object_bytes"`
	HeapLiveBytes   uint64 `json:"heap_live_bytes"`
	TotalBytes      uint64 `json:"total_bytes"`
}, err error,
) {
	err = w.getJSON(ctx, "/debug/runtime", &r)
	return r, err
}

func (w *world) getJSON(ctx context.Context, path string, v any) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, w.base()+path, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+w.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", path, resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(v)
}

// stopServe sends SIGTERM (what an agent does to a server it started)
// and waits at most exitBound; a serve that does not exit is killed, and
// that is an error.
func (w *world) stopServe() (time.Duration, error) {
	if w.serve.cmd == nil {
		return 0, nil
	}
	start := time.Now()
	_ = w.serve.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-w.serve.done:
	case <-time.After(exitBound):
		_ = w.serve.cmd.Process.Kill()
		<-w.serve.done
		return time.Since(start), fmt.Errorf("mcpdeck serve did not exit within %s of SIGTERM (killed)", exitBound)
	}
	took := time.Since(start)
	if w.serve.err != nil {
		return took, fmt.Errorf("mcpdeck serve exited with %v after SIGTERM (want 0): %s", w.serve.err, tail(w.serve.log, 800))
	}
	return took, nil
}

// tail is the end of a log file.
func tail(path string, n int) string {
	b, _ := os.ReadFile(path)
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}
