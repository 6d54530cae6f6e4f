package model

import "time"

// ReasonKind names why a server is in its state. The engine's reducer
// (engine/step.go) is the only code that picks one; the UIs switch on it and
// word it in one formatter (ui/status), so rewording a sentence can never
// change behaviour. The values are stable: they appear in --json output.
type ReasonKind string

// The reasons a server can be where it is. Connected has none.
const (
	ReasonNone ReasonKind = ""
	// ReasonConnecting: an attempt is running; Attempt is 0 for the first
	// connect and n for the n-th reconnect.
	ReasonConnecting ReasonKind = "connecting"
	// ReasonRetryScheduled: attempt Attempt of MaxAttempts runs at At.
	ReasonRetryScheduled ReasonKind = "retry-scheduled"
	// ReasonAwaitingApproval: a project server the person has not approved;
	// Changed when an approved definition changed since (the diff is in the
	// snapshot's Approval).
	ReasonAwaitingApproval ReasonKind = "awaiting-approval"
	// ReasonBlockedByPolicy: managed policy forbids it; Rule names the rule.
	ReasonBlockedByPolicy ReasonKind = "blocked-by-policy"
	// ReasonDisabledByYou: the person turned it off.
	ReasonDisabledByYou ReasonKind = "disabled-by-you"
	// ReasonRejectedByYou: the person refused this project server.
	ReasonRejectedByYou ReasonKind = "rejected-by-you"
	// ReasonConfigProblem: the definition cannot be used; Problem says where
	// and why (a missing ${VAR} is one).
	ReasonConfigProblem ReasonKind = "config-problem"
	// ReasonCommandNotFound: the stdio Command is not on PATH, or, when
	// Missing is set, the path it names does not exist.
	ReasonCommandNotFound ReasonKind = "command-not-found"
	// ReasonCrashed: the process or connection ended; ExitCode when known,
	// Error is the cause in words.
	ReasonCrashed ReasonKind = "crashed"
	// ReasonCrashLoop: it ended within Window of connecting Count times in a
	// row, so it is not restarted; Error is the last cause.
	ReasonCrashLoop ReasonKind = "crash-loop"
	// ReasonGaveUp: MaxAttempts reconnects failed; Error is the last cause.
	ReasonGaveUp ReasonKind = "gave-up"
	// ReasonRetryCancelled: the person stopped the reconnect sequence.
	ReasonRetryCancelled ReasonKind = "retry-cancelled"
	// ReasonAuthNeeded: the server asked for sign-in (Cached when known from
	// an earlier run rather than a fresh 401).
	ReasonAuthNeeded ReasonKind = "auth-needed"
	// ReasonTooLarge: a message was over the size limit; Error names it.
	ReasonTooLarge ReasonKind = "too-large"
	// ReasonTimedOut: no answer within Limit (MCP_TIMEOUT).
	ReasonTimedOut ReasonKind = "timed-out"
	// ReasonFailed: any other failure; Error is the cause in words.
	ReasonFailed ReasonKind = "failed"
)

// Reason is one structured cause: a kind and the facts its sentence needs.
// Only the fields its kind documents are set. Strings in it come from
// outside (servers, files) and are sanitized by whoever prints them.
type Reason struct {
	Kind        ReasonKind    `json:"kind"`
	Attempt     int           `json:"attempt,omitempty"`
	MaxAttempts int           `json:"maxAttempts,omitempty"`
	At          time.Time     `json:"at,omitzero"`
	Changed     bool          `json:"changed,omitempty"`
	Rule        string        `json:"rule,omitempty"`
	Command     string        `json:"command,omitempty"`
	Missing     bool          `json:"missing,omitempty"`
	Problem     *Problem      `json:"problem,omitempty"`
	ExitCode    *int          `json:"exitCode,omitempty"`
	Count       int           `json:"count,omitempty"`
	Window      time.Duration `json:"window,omitempty"`
	Limit       time.Duration `json:"limit,omitempty"`
	Cached      bool          `json:"cached,omitempty"`
	Error       string        `json:"error,omitempty"`
}
