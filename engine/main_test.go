package engine

import (
	"fmt"
	"os"
	"strconv"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
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
