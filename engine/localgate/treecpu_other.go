//go:build !linux

package localgate

import "time"

// TreeCPU has no cheap portable way to read a process tree's CPU use
// outside Linux: it never knows, and the gate counts a connect as waiting
// once it has been under way for idleAfter, so the gate still fills up
// with waiting starts, on time alone (bounded by maxLocalStarts).
func TreeCPU(int) (time.Duration, bool) { return 0, false }
