package clitest

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
	"github.com/mcpdeck/mcpdeck/transports/egress"
)

// Env is a private machine for one test: its own HOME, XDG config dir,
// managed dir, temporary dir and a project directory (under HOME, like a
// real checkout). Every path holds a space ("Application Support"), so
// every CLI test also checks that nothing breaks on one.
type Env struct {
	T       testing.TB
	Home    string
	Config  string // XDG_CONFIG_HOME
	Managed string // MCPDECK_MANAGED_DIR
	Proj    string // working directory of every run
	tmp     string // TMPDIR
	Extra   []string
}

// NewEnv makes the machine's directories under t's temporary directory.
func NewEnv(t testing.TB) *Env {
	t.Helper()
	root := filepath.Join(t.TempDir(), "Application Support")
	e := &Env{
		T:       t,
		Home:    filepath.Join(root, "home"),
		Config:  filepath.Join(root, "home", ".config"),
		Managed: filepath.Join(root, "managed"),
		Proj:    filepath.Join(root, "home", "proj"),
		tmp:     filepath.Join(root, "tmp dir"),
	}
	for _, d := range []string{e.Config, e.Managed, e.Proj, e.tmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

// Result is one run of the binary.
type Result struct {
	Stdout, Stderr string
	Code           int
}

func (r Result) String() string {
	return fmt.Sprintf("exit %d\nstdout:\n%s\nstderr:\n%s", r.Code, r.Stdout, r.Stderr)
}

// Command is mcpdeck with args in the test's isolated world, not started:
// for tests that read its output as it comes or signal it.
func (e *Env) Command(args ...string) *exec.Cmd {
	cmd := exec.Command(Binary, args...)
	cmd.Dir = e.Proj
	cmd.Env = e.env()
	return cmd
}

// env is the isolated world's environment: its HOME, XDG directories,
// managed directory and TMPDIR (all under a path with a space, as on many
// Macs), the test's PATH, then e.extra.
func (e *Env) env() []string {
	return append([]string{
		"HOME=" + e.Home,
		"XDG_CONFIG_HOME=" + e.Config,
		"XDG_CACHE_HOME=" + filepath.Join(e.Home, ".cache"),
		"MCPDECK_MANAGED_DIR=" + e.Managed,
		"TMPDIR=" + e.tmp,
		"PATH=" + os.Getenv("PATH"),
	}, e.Extra...)
}

// Run runs mcpdeck with args in the project directory.
func (e *Env) Run(args ...string) Result {
	e.T.Helper()
	return e.RunIn(e.Proj, args...)
}

// RunIn runs mcpdeck with args in dir.
func (e *Env) RunIn(dir string, args ...string) Result {
	e.T.Helper()
	cmd := exec.Command(Binary, args...)
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
		e.T.Fatalf("running mcpdeck %v: %v", args, err)
	}
	return Result{Stdout: out.String(), Stderr: errb.String(), Code: code}
}

// OK runs and requires exit 0.
func (e *Env) OK(args ...string) Result {
	e.T.Helper()
	r := e.Run(args...)
	if r.Code != 0 {
		e.T.Fatalf("mcpdeck %s: %s", strings.Join(args, " "), r)
	}
	return r
}

// Fails runs and requires the exit code and a one-sentence error on stderr.
func (e *Env) Fails(code int, args ...string) Result {
	e.T.Helper()
	r := e.Run(args...)
	if r.Code != code {
		e.T.Fatalf("mcpdeck %s: want exit %d, got %s", strings.Join(args, " "), code, r)
	}
	lines := strings.Split(strings.TrimRight(r.Stderr, "\n"), "\n")
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "mcpdeck: ") {
		e.T.Fatalf("mcpdeck %s: want one error line starting with \"mcpdeck: \", got %q", strings.Join(args, " "), r.Stderr)
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
	Policy struct {
		Allowed bool   `json:"allowed"`
		Rule    string `json:"rule"`
	} `json:"policy"`
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

// List runs the static `mcp list --json` and indexes the servers by name.
func (e *Env) List(args ...string) (map[string]listed, listDoc) {
	e.T.Helper()
	r := e.Run(append([]string{"mcp", "list", "--no-connect", "--json"}, args...)...)
	var doc listDoc
	if err := json.Unmarshal([]byte(r.Stdout), &doc); err != nil {
		e.T.Fatalf("mcp list --json: %v\n%s", err, r)
	}
	m := map[string]listed{}
	for _, s := range doc.Servers {
		m[s.Name] = s
	}
	return m, doc
}

// Get runs `mcp get NAME --json --no-connect`: the definition as configured.
func (e *Env) Get(name string) listed {
	e.T.Helper()
	r := e.OK("mcp", "get", name, "--json", "--no-connect")
	var s listed
	if err := json.Unmarshal([]byte(r.Stdout), &s); err != nil {
		e.T.Fatalf("mcp get --json: %v\n%s", err, r)
	}
	return s
}

// WriteFile creates a file (and its directory) under the test's machine.
func (e *Env) WriteFile(path, content string) {
	e.T.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		e.T.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		e.T.Fatal(err)
	}
}

func (e *Env) ReadFile(path string) string {
	e.T.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		e.T.Fatal(err)
	}
	return string(b)
}

// ScopeFile is where a writable scope keeps its servers.
func (e *Env) ScopeFile(scope string) string {
	switch scope {
	case "user":
		return filepath.Join(e.Config, "mcpdeck", "settings.json")
	case "project":
		return filepath.Join(e.Proj, ".mcp.json")
	}
	p, err := config.ScopePath(e.LoadOptions(), model.ScopeLocal)
	if err != nil {
		e.T.Fatal(err)
	}
	return p
}

// LoadOptions are the model's options of a run in the project directory.
func (e *Env) LoadOptions() config.LoadOptions {
	return config.LoadOptions{Cwd: e.Proj, Home: e.Home, ConfigDir: filepath.Join(e.Config, "mcpdeck"), ManagedDir: e.Managed}
}

// RunStdin runs mcpdeck like e.Run, with stdin.
func (e *Env) RunStdin(stdin string, args ...string) Result {
	e.T.Helper()
	cmd := exec.Command(Binary, args...)
	cmd.Dir = e.Proj
	cmd.Env = []string{
		"HOME=" + e.Home, "XDG_CONFIG_HOME=" + e.Config, "XDG_CACHE_HOME=" + filepath.Join(e.Home, ".cache"),
		"MCPDECK_MANAGED_DIR=" + e.Managed, "PATH=" + os.Getenv("PATH"),
	}
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	code := 0
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		e.T.Fatalf("running mcpdeck %v: %v", args, err)
	}
	return Result{Stdout: out.String(), Stderr: errb.String(), Code: code}
}

// Binary is the mcpdeck executable built once by TestMain for the CLI tests.
var Binary string

// Main runs a package's CLI tests (a TestMain calls it): it builds the
// real binary once, as `make build` and `make install` do (stamped with the
// commit when the tree is a git checkout, whatever GOFLAGS this machine
// sets), so the CLI tests run what a person runs; it then checks that no
// goroutine outlives the tests. Started as the egress shim (a sandboxed
// server with a host list, run by a command the test runs in process),
// it is the shim, as mcpdeck's main is.
func Main(m *testing.M) {
	if code, ok := egress.RunHelper(os.Args[1:]); ok {
		os.Exit(code)
	}
	dir, err := os.MkdirTemp("", "mcpdeck-cli-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	Binary = filepath.Join(dir, "mcpdeck")
	build := exec.Command("go", "build", "-buildvcs=auto", "-o", Binary, "github.com/mcpdeck/mcpdeck")
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
