package lifecycle

import "time"

// Event is something that happened to one server, as Step sees it. Every
// event carries the time it happened (At); those that may schedule a retry
// carry the jitter drawn for it, so Step itself reads no clock and no
// randomness.
type Event interface{ when() time.Time }

// At is the time an event happened.
type At struct{ Now time.Time }

func (a At) when() time.Time { return a.Now }

// Failure is an error as Step needs it, worked out by the engine: its
// class, the sentences and the exit code.
type Failure struct {
	Class     ErrClass
	ClassName string
	Text      string // the cause in words, redacted (Reason.Error and the snapshot's Error)
	Detail    string // the full error text, redacted
	ExitCode  *int
	Limit     time.Duration // the connect timeout, when it ran out
}

type (
	// Configured: the definition was loaded; Change is what Reconcile
	// decided (start, restart, stop, add, update). Enabling, disabling,
	// approving and rejecting a server, and a policy change, arrive this
	// way: they are written to the configuration, which is then reloaded.
	// CachedAuth: the Authenticator remembers that it needs sign-in.
	Configured struct {
		At
		Def        Definition
		Change     ActionKind
		CachedAuth bool
	}
	// Removed: the definition is gone from the configuration.
	Removed struct{ At }
	// AttemptSucceeded: attempt Gen connected; Problem and Detail are the
	// non-fatal list problems, redacted ("" when none).
	AttemptSucceeded struct {
		At
		Gen             uint64
		Problem, Detail string
	}
	// AttemptFailed: attempt Gen failed.
	AttemptFailed struct {
		At
		Gen    uint64
		Fail   Failure
		Jitter float64
	}
	// Lost: connection Gen ended (or a refetched list went over the limit).
	Lost struct {
		At
		Gen    uint64
		Fail   Failure
		Jitter float64
	}
	// Listed: a refetched list arrived on connection Gen.
	Listed struct {
		At
		Gen             uint64
		Problem, Detail string
	}
	// ListChanged: the server said one of its lists changed. List is the
	// engine's number for it, handed back in EffRefetch.
	ListChanged struct {
		At
		List int
	}
	// RetryDue: the retry scheduled for Gen is due.
	RetryDue struct {
		At
		Gen uint64
	}
	// CallSucceeded and CallFailed: a request on connection Gen ended.
	// Burst is the failure to report when it is the TransientLimit-th
	// transient error in a row.
	CallSucceeded struct {
		At
		Gen uint64
	}
	CallFailed struct {
		At
		Gen         uint64
		Fail, Burst Failure
		Jitter      float64
	}
	// SessionExpired: a call found connection Gen's session gone and the
	// transport cannot start a new one in place.
	SessionExpired struct {
		At
		Gen uint64
	}
	// Reconnect: the person asked to reconnect (or to retry now).
	Reconnect struct{ At }
	// StopRetrying: the person stopped the reconnect sequence.
	StopRetrying struct{ At }
	// AuthDone: the person signed in.
	AuthDone struct{ At }
)

// EffectKind is one thing Step asks the engine to do.
type EffectKind int

const (
	// EffStart launches a connection attempt for generation Gen.
	EffStart EffectKind = iota
	// EffStop ends whatever runs (retry timer, attempt, connection) and
	// drops what the connection taught; KeepStderr copies the closing
	// connection's stderr tail first.
	EffStop
	// EffEndAttempt releases a failed attempt's context.
	EffEndAttempt
	// EffAccept keeps the connection the attempt reported.
	EffAccept
	// EffSchedule runs a retry for generation Gen after Delay.
	EffSchedule
	// EffCancelRetry stops the retry timer (it fired, or runs now).
	EffCancelRetry
	// EffMarkNeedsAuth tells the Authenticator (a file write).
	EffMarkNeedsAuth
	// EffRefetch fetches List again.
	EffRefetch
	// EffPublish sends a snapshot.
	EffPublish
	// EffRefused reports a forbidden state change (a bug), in Text.
	EffRefused
)

// Effect is one effect and its data.
type Effect struct {
	Kind       EffectKind
	Gen        uint64
	Delay      time.Duration
	List       int
	KeepStderr bool
	Text       string
}

// ErrClass is the engine's view of an error's class, which decides what a
// failure means for the server.
type ErrClass int

// The error classes.
const (
	ClassOther ErrClass = iota
	ClassTransient
	ClassTerminal
	ClassAuth
	ClassSessionExpired
	ClassExited
	ClassTimeout
	// ClassTooLarge is a message or list over the size limit: the server
	// fails with no automatic retry, as it would send the same again.
	ClassTooLarge
)

func (c ErrClass) String() string {
	switch c {
	case ClassOther:
		return "error"
	case ClassTransient:
		return "transient"
	case ClassTerminal:
		return "terminal"
	case ClassAuth:
		return "auth"
	case ClassSessionExpired:
		return "session-expired"
	case ClassExited:
		return "exited"
	case ClassTimeout:
		return "timeout"
	case ClassTooLarge:
		return "too-large"
	}
	return "error"
}
