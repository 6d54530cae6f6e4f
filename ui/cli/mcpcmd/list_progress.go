package mcpcmd

import (
	"fmt"
	"strings"
)

// listProgressText is what the progress line of `mcp list` and `mcp get`
// says while servers start (a first `npx` download can take 20 s): how
// many have settled and which are still starting.
func listProgressText(done, total int, waiting []string) string {
	names := waiting
	more := ""
	if len(names) > 3 {
		names, more = names[:3], fmt.Sprintf(" +%d more", len(waiting)-3)
	}
	return fmt.Sprintf("%d of %d servers ready · waiting for %s%s", done, total, strings.Join(names, ", "), more)
}
