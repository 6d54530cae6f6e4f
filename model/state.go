package model

import (
	"fmt"
)

// State is where a server is in its connection lifecycle. The engine owns the
// state; every change goes through Transition so that the table below is the
// single source of truth for what may happen.
type State int

const (
	StatePending State = iota
	StateConnected
	StateFailed
	StateNeedsAuth
	StateDisabled
)

var stateNames = [...]string{"pending", "connected", "failed", "needs-auth", "disabled"}

// String returns the name shown on screen and in --json output.
func (s State) String() string {
	if s < 0 || int(s) >= len(stateNames) {
		return fmt.Sprintf("State(%d)", int(s))
	}
	return stateNames[s]
}

// MarshalText lets State appear by name in JSON.
func (s State) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText parses the names String returns.
func (s *State) UnmarshalText(b []byte) error {
	for i, n := range stateNames {
		if n == string(b) {
			*s = State(i)
			return nil
		}
	}
	return fmt.Errorf("unknown server state %q", b)
}

// allowedTransitions is the server state machine. Pending→pending is a new
// attempt (reconnect n+1); disabled leaves only through pending (enable).
var allowedTransitions = map[State][]State{
	StatePending:   {StatePending, StateConnected, StateFailed, StateNeedsAuth, StateDisabled},
	StateConnected: {StatePending, StateFailed, StateNeedsAuth, StateDisabled},
	StateFailed:    {StatePending, StateDisabled, StateNeedsAuth},
	StateNeedsAuth: {StatePending, StateDisabled, StateFailed},
	StateDisabled:  {StatePending, StateDisabled},
}

// errBadTransition is returned by CheckTransition for a move the table forbids.
var errBadTransition = fmt.Errorf("transition not allowed")

// CheckTransition reports whether from→to is allowed by the state machine.
func CheckTransition(from, to State) error {
	for _, s := range allowedTransitions[from] {
		if s == to {
			return nil
		}
	}
	return fmt.Errorf("%w: %s → %s", errBadTransition, from, to)
}
