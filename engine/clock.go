package engine

import "time"

// Clock is the engine's source of time. It is injectable so that tests can
// drive backoff schedules and timeouts without sleeping; inside a
// testing/synctest bubble the real clock is already fake.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f in its own goroutine after d, like time.AfterFunc.
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a pending AfterFunc call that can be stopped.
type Timer interface {
	// Stop prevents the call; it reports whether it was still pending.
	Stop() bool
}

// realClock is the wall clock.
type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }
