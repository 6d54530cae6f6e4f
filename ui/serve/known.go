package serve

import (
	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/ui/status"
)

// known decides what serve offers of a server that is not connected: the
// lists the engine remembers of it (engine.RememberedLists), while it is
// coming. Lists seen in this run stay offered while the engine reconnects
// it (a call then says why it cannot run), rather than the agent's tools
// leaving and coming back with every drop. Lists from an earlier run are
// offered while the server connects for the first time, so a first list
// is answered at once; once it fails (or needs sign-in) before connecting
// in this run they are withdrawn: what an earlier run saw is no promise,
// and the agent is told with list_changed. They come back with the live
// lists. Its fields are guarded by Gateway.mu.
type known struct {
	// failed are the servers (→ their definition's hash) that failed in
	// this run and have not connected since.
	failed map[string]string
}

func newKnown() known { return known{failed: map[string]string{}} }

// noteLocked records what snapshot s says of a server: a failure, or a
// connection that ends one. Callers hold Gateway.mu.
func (k *known) noteLocked(s *engine.ServerSnapshot) {
	switch status.OutcomeOf(s) {
	case status.OutcomeConnected:
		delete(k.failed, s.Name)
	case status.OutcomeFailed, status.OutcomeNeedsAuth:
		k.failed[s.Name] = s.Hash
	case status.OutcomePending, status.OutcomeDisabled, status.OutcomeApproval:
	}
}

// forgetOthersLocked drops what is noted of servers not in seen (removed
// from the configuration). Callers hold Gateway.mu.
func (k *known) forgetOthersLocked(seen map[string]bool) {
	for n := range k.failed {
		if !seen[n] {
			delete(k.failed, n)
		}
	}
}

// failedLocked reports whether s failed in this run, as defined now, and
// has not connected since. Callers hold Gateway.mu.
func (k *known) failedLocked(s *engine.ServerSnapshot) bool {
	h, ok := k.failed[s.Name]
	return ok && h == s.Hash
}

// offerLocked gives s, not connected, the lists serve offers of it (none
// when it knows none, or only an earlier run's of a server that failed
// since). Callers hold Gateway.mu.
func (k *known) offerLocked(s *engine.ServerSnapshot) {
	s.Tools, s.Prompts, s.Resources, s.Templates = nil, nil, nil, nil
	m := s.Remembered
	if m == nil || (m.Earlier && k.failedLocked(s)) {
		return
	}
	s.Tools, s.Prompts, s.Resources, s.Templates = m.Tools, m.Prompts, m.Resources, m.Templates
}

// awaitedLocked reports whether a first answer waits for s: it is
// offered, on its way to its first connection, has not failed in this
// run, and serve knows no lists of it. Callers hold Gateway.mu.
func (k *known) awaitedLocked(f filter, s *engine.ServerSnapshot) bool {
	return f.exposes(s) && s.State != model.StateConnected && s.Remembered == nil &&
		status.OutcomeOf(s) == status.OutcomePending && !k.failedLocked(s)
}
