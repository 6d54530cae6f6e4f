package winetest

import (
	"os"
	"testing"
)

// TestDetected: the Windows lane (testdata/wine/run.sh) tells its test
// binaries they run under Wine (MCPDECK_UNDER_WINE=1), and Detected must
// agree, so a skip there is a skip under Wine; everywhere else, real
// Windows included, nothing is detected and nothing skips.
func TestDetected(t *testing.T) {
	want := os.Getenv("MCPDECK_UNDER_WINE") == "1"
	if got := Detected(); got != want {
		t.Errorf("Detected() = %v, want %v (MCPDECK_UNDER_WINE=%q)", got, want, os.Getenv("MCPDECK_UNDER_WINE"))
	}
}
