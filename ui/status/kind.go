package status

import (
	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
)

// Kind is what a server is, as a person sees it: the engine's five states,
// with "pending" split into waiting for you (awaiting approval) and waiting
// for the server, and "disabled" split into by you, by policy and
// rejected by you (a project server the person said no to is counted as
// rejected, not as disabled). Its glyph, tone, word and header label are
// its entry in kinds.
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

// kindLook is how a kind is shown, everywhere it is shown.
type kindLook struct {
	glyph string // the one-character mark in lists and the header
	tone  Tone   // the glyph's colour
	word  string // the state in words (Word)
	label string // what the header counts ("3 needs auth")
}

// kinds is the one home of each kind's look, one entry per kind
// (TestEveryKindHasALook).
var kinds = [NumKinds]kindLook{
	Connected: {glyph: "●", tone: ToneGood, word: "connected", label: "connected"},
	Pending:   {glyph: "◌", tone: ToneWarn, word: "pending", label: "pending"},
	Failed:    {glyph: "✗", tone: ToneBad, word: "failed", label: "failed"},
	NeedsAuth: {glyph: "◆", tone: ToneAuth, word: "needs-auth", label: "needs auth"},
	Disabled:  {glyph: "○", tone: ToneOff, word: "disabled", label: "disabled"},
	Blocked:   {glyph: "⊘", tone: ToneOff, word: "blocked by policy", label: "blocked"},
	Awaiting:  {glyph: "?", tone: ToneWarn, word: "awaiting approval", label: "awaiting approval"},
	Rejected:  {glyph: "⊖", tone: ToneOff, word: "rejected by you", label: "rejected"},
}

// look is k's entry; an unknown kind looks like plain text with a dot.
func (k Kind) look() kindLook {
	if k < 0 || int(k) >= NumKinds {
		return kindLook{glyph: "·", tone: ToneText}
	}
	return kinds[k]
}

// Glyph is the kind's one-character mark in lists.
func (k Kind) Glyph() string { return k.look().glyph }

// Label is what the header calls the servers of this kind when it counts
// them.
func (k Kind) Label() string { return k.look().label }

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

// Tone is the tone of the kind's glyph.
func (k Kind) Tone() Tone { return k.look().tone }
