// Package boxtest helps the sandbox's tests: it finds the sandbox
// mechanism (skipping with the reason when it is missing, failing under
// CI=true, where .ci/run installs it), builds testdata/boxserver, and
// plants a home directory holding a private key the sandbox must hide.
package boxtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/mcpdeck/mcpdeck/model/sandbox"
)

// Key is the content of the planted ~/.ssh/id_rsa.
const Key = "-----BEGIN OPENSSH PRIVATE KEY----- planted by boxtest"

// RequireMechanism returns the system's sandbox mechanism. Without one
// the test is skipped with the reason, unless CI=true: there it fails.
func RequireMechanism(t testing.TB) sandbox.Mechanism {
	t.Helper()
	m, err := sandbox.FindMechanism(func(p string) bool { _, err := os.Stat(p); return err == nil })
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI must have a sandbox mechanism: %v", err)
		}
		t.Skipf("no sandbox mechanism: %v", err)
	}
	return m
}

// BuildBoxServer builds testdata/boxserver into dir and returns its path.
func BuildBoxServer(t testing.TB, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "boxserver")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/mcpdeck/mcpdeck/testdata/boxserver").CombinedOutput(); err != nil {
		t.Fatalf("building boxserver: %v\n%s", err, out)
	}
	return bin
}

// PlantHome makes a home directory with ~/.ssh/id_rsa holding Key, sets
// HOME (and the XDG directories) to it for the test, and returns it and
// the key's path. Build before: go's build cache is under the home.
func PlantHome(t testing.TB) (home, key string) {
	t.Helper()
	home = filepath.Join(t.TempDir(), "home")
	key = filepath.Join(home, ".ssh", "id_rsa")
	if err := os.MkdirAll(filepath.Dir(key), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(key, []byte(Key), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(home, ".cache"))
	return home, key
}
