// Package cli is mcpdeck's command-line interface (cobra): the config
// commands, the engine-backed commands and the entry to the TUI.
package cli

import (
	"fmt"
	"os"
)

// Execute runs the command line and returns the process exit code.
func Execute(args []string) int {
	fmt.Fprintln(os.Stderr, "mcpdeck: not built yet")
	return 1
}
