//go:build !unix

package styles

import "time"

// queryBackground does not ask on this platform: the console has no
// portable way to answer, and lipgloss's default (dark) stays.
func queryBackground(time.Duration) (dark, ok bool) { return false, false }
