package engine

import "time"

// event is something that happened to one server, as step sees it. Every
// event carries the time it happened; those that may schedule a retry carry
// the jitter drawn for it, so step itself reads no clock and no randomness.
type event interface{ when() time.Time }

// at is the time an event happened.
type at struct{ now time.Time }

func (a at) when() time.Time { return a.now }

// failure is an error as step needs it, worked out by the engine
// (describe): its class, the sentences and the exit code.
type failure struct {
	class     errClass
	className string
	text      string // the cause in words, redacted (Reason.Error and the snapshot's Error)
	detail    string // the full error text, redacted
	exitCode  *int
	limit     time.Duration // the connect timeout, when it ran out
}

type (
	// evConfigured: the definition was loaded; change is what reconcile
	// decided (start, restart, stop, add, update). Enabling, disabling,
	// approving and rejecting a server, and a policy change, arrive this
	// way: they are written to the configuration, which is then reloaded.
	// cachedAuth: the Authenticator remembers that it needs sign-in.
	evConfigured struct {
		at
		def        definition
		change     actionKind
		cachedAuth bool
	}
	// evRemoved: the definition is gone from the configuration.
	evRemoved struct{ at }
	// evAttemptSucceeded: attempt gen connected; problem and detail are the
	// non-fatal list problems, redacted ("" when none).
	evAttemptSucceeded struct {
		at
		gen             uint64
		problem, detail string
	}
	// evAttemptFailed: attempt gen failed.
	evAttemptFailed struct {
		at
		gen    uint64
		fail   failure
		jitter float64
	}
	// evLost: connection gen ended (or a refetched list went over the limit).
	evLost struct {
		at
		gen    uint64
		fail   failure
		jitter float64
	}
	// evListed: a refetched list arrived on connection gen.
	evListed struct {
		at
		gen             uint64
		problem, detail string
	}
	// evListChanged: the server said one of its lists changed.
	evListChanged struct {
		at
		list listKind
	}
	// evRetryDue: the retry scheduled for gen is due.
	evRetryDue struct {
		at
		gen uint64
	}
	// evCallSucceeded and evCallFailed: a request on connection gen ended.
	// burst is the failure to report when it is the transientLimit-th
	// transient error in a row.
	evCallSucceeded struct {
		at
		gen uint64
	}
	evCallFailed struct {
		at
		gen         uint64
		fail, burst failure
		jitter      float64
	}
	// evSessionExpired: a call found connection gen's session gone and the
	// transport cannot start a new one in place.
	evSessionExpired struct {
		at
		gen uint64
	}
	// evReconnect: the person asked to reconnect (or to retry now).
	evReconnect struct{ at }
	// evStopRetrying: the person stopped the reconnect sequence.
	evStopRetrying struct{ at }
	// evAuthDone: the person signed in.
	evAuthDone struct{ at }
)

// effectKind is one thing step asks the engine to do.
type effectKind int

const (
	// effStart launches a connection attempt for generation gen.
	effStart effectKind = iota
	// effStop ends whatever runs (retry timer, attempt, connection) and
	// drops what the connection taught; keepStderr copies the closing
	// connection's stderr tail first.
	effStop
	// effEndAttempt releases a failed attempt's context.
	effEndAttempt
	// effAccept keeps the connection the attempt reported.
	effAccept
	// effSchedule runs a retry for generation gen after delay.
	effSchedule
	// effCancelRetry stops the retry timer (it fired, or runs now).
	effCancelRetry
	// effMarkNeedsAuth tells the Authenticator (a file write).
	effMarkNeedsAuth
	// effRefetch fetches list again.
	effRefetch
	// effPublish sends a snapshot.
	effPublish
	// effRefused reports a forbidden state change (a bug), in text.
	effRefused
)

// effect is one effect and its data.
type effect struct {
	kind       effectKind
	gen        uint64
	delay      time.Duration
	list       listKind
	keepStderr bool
	text       string
}
