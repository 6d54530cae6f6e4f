package main

import "time"

// What mcpdeck is given for the run, and the bounds the verdicts rest on.
// Each bound is a promise of mcpdeck's plus a margin for a loaded 2-core
// machine, never a guess at how fast something usually is.
const (
	// toolTimeout is MCP_TOOL_TIMEOUT: mcpdeck answers every call within
	// it, with a result or an error ("no answer within 20s").
	toolTimeout = 20 * time.Second
	// connectTimeout is MCP_TIMEOUT: one connection attempt opens within
	// it, and lists what the server offers within another.
	connectTimeout = 10 * time.Second
	// pingInterval is MCPDECK_PING_INTERVAL: two unanswered pings in a row
	// are a lost connection, so a stopped (hung) server is noticed within
	// about 3 intervals.
	pingInterval = 3 * time.Second
	// callTimeout is how long an agent waits before it counts a call as
	// lost. mcpdeck answers within toolTimeout (a call that waits for a
	// session to be re-established waits within it too), then gives a
	// call whose connection broke up to 3 s to learn why (the engine's
	// lossGrace); the remaining 35 s are margin for a loaded machine.
	callTimeout = toolTimeout + 40*time.Second
	// maxBackoff is the longest wait before a reconnect attempt under
	// mcpdeck's backoff: 5 attempts, 1 s doubling (the 5th waits 16 s),
	// plus up to 25 % jitter.
	maxBackoff = 20 * time.Second
	// recoveryBound is how long after the faults stop every server must
	// answer again: at most maxBackoff until its next attempt, which
	// opens and lists within 2 × connectTimeout, plus 20 s of margin. A
	// server that gave up (failed, needs auth) is asked to connect by the
	// first call to it (serve promises that), which the recovery probe
	// makes at once.
	recoveryBound = maxBackoff + 2*connectTimeout + 20*time.Second
	// exitBound is how long serve may take to exit after SIGTERM: it
	// closes the agents' sessions within 2 s and stops every server
	// (a stdio server gets SIGTERM, then SIGKILL); the rest is margin.
	exitBound = 30 * time.Second
	// settleBound is how long a sample waits for the goroutine count to
	// stop moving once the agents are paused (timers of finished calls,
	// closing streams).
	settleBound = 20 * time.Second
)

// phases are when each part of a run ends, from its start.
type phases struct {
	warm, faults, end time.Duration
}

// plan splits a run of d: a warm-up of a tenth (20 s to 60 s; the start
// sample is taken at its end, so "after the first minute" on a run of
// 10 minutes), faults until the reserve is left, and a reserve of a fifth
// (at least recoveryBound plus 15 s) for recovery and a steady phase.
func plan(d time.Duration) phases {
	warm := min(max(d/10, 20*time.Second), time.Minute)
	reserve := max(d/5, recoveryBound+15*time.Second)
	return phases{warm: warm, faults: d - reserve, end: d}
}
