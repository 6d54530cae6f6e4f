package launch

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/sandbox"
	"github.com/mcpdeck/mcpdeck/testdata/launchtest"
)

// TestSandboxWithoutNamespacesDoesNotRun: a bubblewrap that cannot make
// its namespaces (here a stand-in that fails as bwrap does, before
// writing its info) makes Start fail with ErrNoNamespaces, the program
// not run and the private temporary directory gone.
func TestSandboxWithoutNamespacesDoesNotRun(t *testing.T) {
	dir := t.TempDir()
	fake := launchtest.Script(t, filepath.Join(dir, "bwrap"), "echo 'bwrap: No permissions to create new namespace' >&2; exit 1")
	_, marker := launchtest.Marker(t, filepath.Join(dir, "server"))
	t.Setenv("TMPDIR", t.TempDir())
	l := Launcher{Server: "box", mechanism: func() (sandbox.Mechanism, error) {
		return sandbox.Mechanism{Name: "bubblewrap", Path: fake}, nil
	}}
	_, err := l.Start(Spec{Command: filepath.Join(dir, "server"), Sandbox: model.DefaultSandbox()}, nil, nil, nil)
	if !errors.Is(err, sandbox.ErrNoNamespaces) {
		t.Fatalf("Start = %v, want ErrNoNamespaces", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the server ran")
	}
	if left, _ := filepath.Glob(filepath.Join(os.Getenv("TMPDIR"), "mcpdeck-sandbox-*")); len(left) > 0 {
		t.Errorf("temporary directories left: %v", left)
	}
}
