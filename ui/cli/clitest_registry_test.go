package cli

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

// runFunc runs the command line in this process, as the cli package's
// Run does, and returns the exit code.
type runFunc func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int

// registryMachine is a cliEnv whose runs happen in this process (run) on a
// machine without a keychain, so secrets go to the 0600 credentials file
// of the test's config dir and never to a real keychain; the registry is
// the fake one, serving extra documents too. Tests using it cannot be
// parallel (environment, working directory, keyring).
type registryMachine struct {
	*cliEnv
	run runFunc
	all strings.Builder // every byte printed, to look for secrets
}

func newRegistryMachine(t *testing.T, run runFunc, extra ...string) *registryMachine {
	keyring.MockInitWithError(errors.New("org.freedesktop.secrets was not provided by any .service files"))
	t.Cleanup(keyring.MockInit)
	srv := httptest.NewServer(fakeregistry.Handler(extra...))
	t.Cleanup(srv.Close)
	e := newCLIEnv(t)
	for k, v := range map[string]string{
		"HOME": e.home, "XDG_CONFIG_HOME": e.config, "XDG_CACHE_HOME": filepath.Join(e.home, ".cache"),
		"MCPDECK_MANAGED_DIR": e.managed, "MCPDECK_REGISTRY_URL": srv.URL, "ACCESSIBLE": "",
	} {
		t.Setenv(k, v)
	}
	t.Chdir(e.proj)
	return &registryMachine{cliEnv: e, run: run}
}

// mcpdeck runs the command line in this process.
func (m *registryMachine) mcpdeck(args ...string) result {
	var out, errb bytes.Buffer
	code := m.run(context.Background(), args, strings.NewReader(""), &out, &errb)
	m.all.WriteString(out.String() + errb.String())
	return result{stdout: out.String(), stderr: errb.String(), code: code}
}

func (m *registryMachine) ok(args ...string) result {
	m.t.Helper()
	r := m.mcpdeck(args...)
	if r.code != 0 {
		m.t.Fatalf("mcpdeck %s: %s", strings.Join(args, " "), r)
	}
	return r
}

// credentials is the keychain-less store's file.
func (m *registryMachine) credentials() map[string]string {
	m.t.Helper()
	out := map[string]string{}
	b, err := os.ReadFile(filepath.Join(m.config, "mcpdeck", "credentials.json"))
	if errors.Is(err, os.ErrNotExist) {
		return out
	}
	if err != nil || json.Unmarshal(b, &out) != nil {
		m.t.Fatalf("credentials.json: %v %s", err, b)
	}
	return out
}

// definition is one server's entry in a scope's file.
func (m *registryMachine) definition(scope, name string) map[string]any {
	m.t.Helper()
	var doc struct {
		MCPServers map[string]map[string]any `json:"mcpServers"`
	}
	if err := json.Unmarshal([]byte(m.read(m.scopeFile(scope))), &doc); err != nil {
		m.t.Fatal(err)
	}
	return doc.MCPServers[name]
}

// needNpxEverything returns the directory of the pinned Node tools
// (MCPDECK_NPM_DIR, else testdata/npm/node_modules), or skips the test
// (fails it under CI) when npx or server-everything is missing.
func needNpxEverything(t *testing.T) string {
	t.Helper()
	npmDir := os.Getenv("MCPDECK_NPM_DIR")
	if npmDir == "" {
		npmDir, _ = filepath.Abs("../../testdata/npm/node_modules")
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
