package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
)

// binary is the mcpdeck executable built once by TestMain for the CLI tests.
var binary string

// TestMain builds the real binary once, as `make build` and `make install`
// do (stamped with the commit when the tree is a git checkout, whatever
// GOFLAGS this machine sets), so the CLI tests run what a person runs; it
// then checks that no goroutine outlives the tests.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "mcpdeck-cli-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "mcpdeck")
	build := exec.Command("go", "build", "-buildvcs=auto", "-o", binary, "github.com/mcpdeck/mcpdeck")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building mcpdeck: %v\n%s", err, out)
		_ = os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			code = 1
		}
	}
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// cliEnv is a private machine for one test: its own HOME, XDG config dir,
// managed dir, temporary dir and a project directory (under HOME, like a
// real checkout). Every path holds a space ("Application Support"), so
// every CLI test also checks that nothing breaks on one.
type cliEnv struct {
	t       testing.TB
	home    string
	config  string // XDG_CONFIG_HOME
	managed string // MCPDECK_MANAGED_DIR
	proj    string // working directory of every run
	tmp     string // TMPDIR
	extra   []string
}

func newCLIEnv(t testing.TB) *cliEnv {
	t.Helper()
	root := filepath.Join(t.TempDir(), "Application Support")
	e := &cliEnv{
		t:       t,
		home:    filepath.Join(root, "home"),
		config:  filepath.Join(root, "home", ".config"),
		managed: filepath.Join(root, "managed"),
		proj:    filepath.Join(root, "home", "proj"),
		tmp:     filepath.Join(root, "tmp dir"),
	}
	for _, d := range []string{e.config, e.managed, e.proj, e.tmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

// result is one run of the binary.
type result struct {
	stdout, stderr string
	code           int
}

func (r result) String() string {
	return fmt.Sprintf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
}

// run runs mcpdeck with args in the project directory.
// command is mcpdeck with args in the test's isolated world, not started:
// for tests that read its output as it comes or signal it.
func (e *cliEnv) command(args ...string) *exec.Cmd {
	cmd := exec.Command(binary, args...)
	cmd.Dir = e.proj
	cmd.Env = e.env()
	return cmd
}

// env is the isolated world's environment: its HOME, XDG directories,
// managed directory and TMPDIR (all under a path with a space, as on many
// Macs), the test's PATH, then e.extra.
func (e *cliEnv) env() []string {
	return append([]string{
		"HOME=" + e.home,
		"XDG_CONFIG_HOME=" + e.config,
		"XDG_CACHE_HOME=" + filepath.Join(e.home, ".cache"),
		"MCPDECK_MANAGED_DIR=" + e.managed,
		"TMPDIR=" + e.tmp,
		"PATH=" + os.Getenv("PATH"),
	}, e.extra...)
}

func (e *cliEnv) run(args ...string) result {
	e.t.Helper()
	return e.runIn(e.proj, args...)
}

func (e *cliEnv) runIn(dir string, args ...string) result {
	e.t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	cmd.Env = e.env()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		e.t.Fatalf("running mcpdeck %v: %v", args, err)
	}
	return result{stdout: out.String(), stderr: errb.String(), code: code}
}

// ok runs and requires exit 0.
func (e *cliEnv) ok(args ...string) result {
	e.t.Helper()
	r := e.run(args...)
	if r.code != 0 {
		e.t.Fatalf("mcpdeck %s: %s", strings.Join(args, " "), r)
	}
	return r
}

// fails runs and requires the exit code and a one-sentence error on stderr.
func (e *cliEnv) fails(code int, args ...string) result {
	e.t.Helper()
	r := e.run(args...)
	if r.code != code {
		e.t.Fatalf("mcpdeck %s: want exit %d, got %s", strings.Join(args, " "), code, r)
	}
	lines := strings.Split(strings.TrimRight(r.stderr, "\n"), "\n")
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "mcpdeck: ") {
		e.t.Fatalf("mcpdeck %s: want one error line starting with \"mcpdeck: \", got %q", strings.Join(args, " "), r.stderr)
	}
	return r
}

// listed is the part of `mcp list --json` / `mcp get --json` the tests read.
type listed struct {
	Name      string            `json:"name"`
	Scope     string            `json:"scope"`
	Source    string            `json:"source"`
	Transport string            `json:"transport"`
	Command   string            `json:"command"`
	Args      []string          `json:"args"`
	URL       string            `json:"url"`
	Env       map[string]string `json:"env"`
	Headers   map[string]string `json:"headers"`
	Enabled   bool              `json:"enabled"`
	Approval  struct {
		Status string `json:"status"`
	} `json:"approval"`
	OAuth *struct {
		ClientID     string `json:"clientId"`
		CallbackPort int    `json:"callbackPort"`
	} `json:"oauth"`
	Problems []struct {
		Message string `json:"message"`
	} `json:"problems"`
}

type listDoc struct {
	Servers  []listed `json:"servers"`
	Problems []struct {
		File    string `json:"file"`
		Line    int    `json:"line"`
		Message string `json:"message"`
	} `json:"problems"`
}

// list runs the static `mcp list --json` and indexes the servers by name.
func (e *cliEnv) list(args ...string) (map[string]listed, listDoc) {
	e.t.Helper()
	r := e.run(append([]string{"mcp", "list", "--no-connect", "--json"}, args...)...)
	var doc listDoc
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		e.t.Fatalf("mcp list --json: %v\n%s", err, r)
	}
	m := map[string]listed{}
	for _, s := range doc.Servers {
		m[s.Name] = s
	}
	return m, doc
}

// get runs `mcp get NAME --json --no-connect`: the definition as configured.
func (e *cliEnv) get(name string) listed {
	e.t.Helper()
	r := e.ok("mcp", "get", name, "--json", "--no-connect")
	var s listed
	if err := json.Unmarshal([]byte(r.stdout), &s); err != nil {
		e.t.Fatalf("mcp get --json: %v\n%s", err, r)
	}
	return s
}

// write creates a file (and its directory) under the test's machine.
func (e *cliEnv) write(path, content string) {
	e.t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		e.t.Fatal(err)
	}
}

func (e *cliEnv) read(path string) string {
	e.t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		e.t.Fatal(err)
	}
	return string(b)
}

// scopeFile is where a writable scope keeps its servers.
func (e *cliEnv) scopeFile(scope string) string {
	switch scope {
	case "user":
		return filepath.Join(e.config, "mcpdeck", "settings.json")
	case "project":
		return filepath.Join(e.proj, ".mcp.json")
	}
	p, err := config.ScopePath(e.loadOptions(), model.ScopeLocal)
	if err != nil {
		e.t.Fatal(err)
	}
	return p
}

// loadOptions are the model's options of a run in the project directory.
func (e *cliEnv) loadOptions() config.LoadOptions {
	return config.LoadOptions{Cwd: e.proj, Home: e.home, ConfigDir: filepath.Join(e.config, "mcpdeck"), ManagedDir: e.managed}
}
