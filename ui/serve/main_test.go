package serve

import (
	"fmt"
	"os"
	"testing"

	"go.uber.org/goleak"

	"github.com/mcpdeck/mcpdeck/testdata/faultlaunch"
)

// faultBin is testdata/faultserver, built once by TestMain: the real
// stdio server every test's engine runs.
var faultBin string

// TestMain builds the fault server and fails the run if a goroutine
// outlives the tests (every gateway, engine and client was closed).
func TestMain(m *testing.M) {
	var fault faultlaunch.Binary
	bin, err := fault.Path()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		fault.Remove()
		os.Exit(1)
	}
	faultBin = bin
	code := m.Run()
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			code = 1
		}
	}
	fault.Remove()
	os.Exit(code)
}
