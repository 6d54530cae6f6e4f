//go:build !linux

package sandbox

import (
	"fmt"
	"os"
)

// RunFiltered exists for Linux only, where the network shim runs the
// server through it; elsewhere it refuses, and never runs the program.
func RunFiltered([]string) int {
	fmt.Fprintln(os.Stderr, "mcpdeck sandbox: "+FilterExecArg+" works on Linux only")
	return 2
}
