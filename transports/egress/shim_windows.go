//go:build windows

package egress

import (
	"fmt"
	"os"
)

// RunShim exists for the build: no sandbox on Windows runs the shim, so
// it says so and returns 125.
func RunShim(_ []string) int {
	_, _ = fmt.Fprintln(os.Stderr, "mcpdeck sandbox shim: the sandbox shim runs only inside a Linux or macOS sandbox, not on Windows")
	return shimSetup
}
