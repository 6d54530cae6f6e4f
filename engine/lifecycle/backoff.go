package lifecycle

import "time"

// Backoff is the reconnect policy: MaxAttempts tries, the n-th (0-based)
// waiting min(Base·2^n, Cap) plus up to Jitter of that delay. It is a value so
// that tests and the crash-restart path share exactly one schedule.
type Backoff struct {
	MaxAttempts int
	Base        time.Duration
	Cap         time.Duration
	// Jitter is the largest fraction of the delay added at random (0.25 =
	// up to 25 % longer), so that many servers lost at once do not retry in
	// lockstep.
	Jitter float64
}

// DefaultBackoff is the reconnect policy: 5 attempts, 1 s doubling, capped at 30 s.
func DefaultBackoff() Backoff {
	return Backoff{MaxAttempts: 5, Base: time.Second, Cap: 30 * time.Second, Jitter: 0.25}
}

// Delay returns how long to wait before attempt n (1-based); rnd returns a
// value in [0,1) and may be nil for no jitter.
func (b Backoff) Delay(n int, rnd func() float64) time.Duration {
	if n < 1 {
		n = 1
	}
	d := b.Base
	for i := 1; i < n && d < b.Cap; i++ {
		d *= 2
	}
	if b.Cap > 0 && d > b.Cap {
		d = b.Cap
	}
	if rnd != nil && b.Jitter > 0 {
		d += time.Duration(float64(d) * b.Jitter * rnd())
	}
	return d
}
