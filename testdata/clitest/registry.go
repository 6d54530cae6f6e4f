package clitest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"

	"github.com/mcpdeck/mcpdeck/testdata/fakeregistry"
)

// RunFunc runs the command line in this process, as the cli package's
// Run does, and returns the exit code.
type RunFunc func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int

// RegistryMachine is an Env whose runs (RunInProcess, OK) happen in this
// process, through the cli package's Run, on a machine without a keychain,
// so secrets go to the 0600 credentials file of the test's config dir and
// never to a real keychain; the registry is the fake one, serving extra
// documents too. Tests using it cannot be parallel (environment, working
// directory, keyring).
type RegistryMachine struct {
	*Env
	run RunFunc
	All strings.Builder // every byte printed, to look for secrets
}

// NewRegistryMachine makes the machine; run is cli.Run. The fake registry
// serves extra documents besides its own.
func NewRegistryMachine(t *testing.T, run RunFunc, extra ...string) *RegistryMachine {
	keyring.MockInitWithError(errors.New("org.freedesktop.secrets was not provided by any .service files"))
	t.Cleanup(keyring.MockInit)
	srv := httptest.NewServer(fakeregistry.Handler(extra...))
	t.Cleanup(srv.Close)
	e := NewEnv(t)
	for k, v := range map[string]string{
		"HOME": e.Home, "XDG_CONFIG_HOME": e.Config, "XDG_CACHE_HOME": filepath.Join(e.Home, ".cache"),
		"MCPDECK_MANAGED_DIR": e.Managed, "MCPDECK_REGISTRY_URL": srv.URL, "ACCESSIBLE": "",
	} {
		t.Setenv(k, v)
	}
	t.Chdir(e.Proj)
	return &RegistryMachine{Env: e, run: run}
}

// RunInProcess runs the command line in this process.
func (m *RegistryMachine) RunInProcess(args ...string) Result {
	var out, errb bytes.Buffer
	code := m.run(context.Background(), args, strings.NewReader(""), &out, &errb)
	m.All.WriteString(out.String() + errb.String())
	return Result{Stdout: out.String(), Stderr: errb.String(), Code: code}
}

// OK runs in process and requires exit 0.
func (m *RegistryMachine) OK(args ...string) Result {
	m.T.Helper()
	r := m.RunInProcess(args...)
	if r.Code != 0 {
		m.T.Fatalf("mcpdeck %s: %s", strings.Join(args, " "), r)
	}
	return r
}

// Credentials is the keychain-less store's file.
func (m *RegistryMachine) Credentials() map[string]string {
	m.T.Helper()
	out := map[string]string{}
	b, err := os.ReadFile(filepath.Join(m.Config, "mcpdeck", "credentials.json"))
	if errors.Is(err, os.ErrNotExist) {
		return out
	}
	if err != nil || json.Unmarshal(b, &out) != nil {
		m.T.Fatalf("credentials.json: %v %s", err, b)
	}
	return out
}

// Definition is one server's entry in a scope's file.
func (m *RegistryMachine) Definition(scope, name string) map[string]any {
	m.T.Helper()
	var doc struct {
		MCPServers map[string]map[string]any `json:"mcpServers"`
	}
	if err := json.Unmarshal([]byte(m.ReadFile(m.ScopeFile(scope))), &doc); err != nil {
		m.T.Fatal(err)
	}
	return doc.MCPServers[name]
}

// NeedNpxEverything returns the directory of the pinned Node tools
// (MCPDECK_NPM_DIR, else testdata/npm/node_modules), or skips the test
// (fails it under CI) when npx or server-everything is missing.
func NeedNpxEverything(t *testing.T) string {
	t.Helper()
	npmDir := os.Getenv("MCPDECK_NPM_DIR")
	if npmDir == "" {
		npmDir = RepoPath(t, "testdata", "npm", "node_modules")
	}
	_, npxErr := exec.LookPath("npx")
	if _, err := os.Stat(filepath.Join(npmDir, "@modelcontextprotocol", "server-everything", "package.json")); err != nil || npxErr != nil {
		msg := "needs npx and server-everything from testdata/npm (make npm-deps, or MCPDECK_NPM_DIR)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return npmDir
}
