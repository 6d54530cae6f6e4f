package status

import (
	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
)

// Kind is what a server is, as a person sees it: the engine's five states,
// with "pending" split into waiting for you (awaiting approval) and waiting
// for the server, and "disabled" split into by you, by policy and
// rejected by you (a project server the person said no to is counted as
// rejected, not as disabled). Glyph, header counts, tone and words all
// follow from it.
type Kind int

// The kinds, in the order the header counts them.
const (
	Connected Kind = iota
	Pending
	Failed
	NeedsAuth
	Disabled
	Blocked  // managed policy forbids it
	Awaiting // a project server waiting for your approval
	Rejected // a project server you rejected
	numKinds
)

// NumKinds is the number of kinds, for arrays indexed by Kind.
const NumKinds = int(numKinds)

// KindOf classifies s. A connected server is connected whatever else holds.
func KindOf(s *engine.ServerSnapshot) Kind {
	if s.State != model.StateConnected {
		switch {
		case AwaitsApproval(s):
			return Awaiting
		case IsBlocked(s):
			return Blocked
		case s.Approval.Status == model.ApprovalRejected:
			return Rejected
		}
	}
	switch s.State {
	case model.StateConnected:
		return Connected
	case model.StateFailed:
		return Failed
	case model.StateNeedsAuth:
		return NeedsAuth
	case model.StateDisabled:
		return Disabled
	case model.StatePending:
	}
	return Pending
}

// AwaitsApproval reports whether a project server waits for the person's
// decision (new, or changed since approved).
func AwaitsApproval(s *engine.ServerSnapshot) bool {
	return s.Approval.Status == model.ApprovalPending || s.Approval.Status == model.ApprovalChanged
}

// IsBlocked reports whether a managed policy rule forbids the server.
func IsBlocked(s *engine.ServerSnapshot) bool { return !s.Policy.Allowed && s.Policy.Rule != "" }

var glyphs = [NumKinds]string{"●", "◌", "✗", "◆", "○", "⊘", "?", "⊖"}

// Glyph is the kind's one-character mark in lists.
func (k Kind) Glyph() string {
	if k < 0 || int(k) >= NumKinds {
		return "·"
	}
	return glyphs[k]
}

// Tone is the semantic colour a piece of status text takes (ui/styles maps
// it; the CLI prints plain text).
type Tone int

// The tones.
const (
	ToneText Tone = iota
	ToneGood
	ToneWarn
	ToneBad
	ToneAuth
	ToneOff
)

var glyphTones = [NumKinds]Tone{ToneGood, ToneWarn, ToneBad, ToneAuth, ToneOff, ToneOff, ToneWarn, ToneOff}

// Tone is the tone of the kind's glyph.
func (k Kind) Tone() Tone {
	if k < 0 || int(k) >= NumKinds {
		return ToneText
	}
	return glyphTones[k]
}
