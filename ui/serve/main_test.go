package serve

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"go.uber.org/goleak"
)

// faultBin is testdata/faultserver, built once by TestMain: the real
// stdio server every test's engine runs.
var faultBin string

// TestMain builds the fault server and fails the run if a goroutine
// outlives the tests (every gateway, engine and client was closed).
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "mcpdeck-serve-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	faultBin = filepath.Join(dir, "faultserver")
	if runtime.GOOS == "windows" {
		faultBin += ".exe"
	}
	if out, err := exec.Command("go", "build", "-o", faultBin, "../../testdata/faultserver").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building faultserver: %v\n%s", err, out)
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
