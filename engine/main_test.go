package engine

import (
	"fmt"
	"os"
	"strconv"
	"testing"

	"go.uber.org/goleak"

	"github.com/mcpdeck/mcpdeck/transports/egress"
)

func TestMain(m *testing.M) {
	if code, ok := egress.RunHelper(os.Args[1:]); ok {
		os.Exit(code) // a sandboxed server's shim, as in main
	}
	code := m.Run()
	faultBin.Remove()
	editorBin.Remove()
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goroutines leaked:", err)
			code = 1
		}
	}
	os.Exit(code)
}

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
