package engine

import (
	"fmt"
	"os"
	"strconv"
	"testing"

	"go.uber.org/goleak"
)

// faultDir is where the faultserver test binary was built, removed at exit.
var faultDir string

func TestMain(m *testing.M) {
	code := m.Run()
	if faultDir != "" {
		_ = os.RemoveAll(faultDir)
	}
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goroutines leaked:", err)
			code = 1
		}
	}
	os.Exit(code)
}

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
