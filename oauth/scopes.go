package oauth

import (
	"slices"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/lock"
)

// stepUps is the step-up part: per server, the scopes a 403
// insufficient_scope asked for that the next sign-in requests (pending),
// and those a refused request ended without (lacking), which a caller
// shows as "sign-in lacks scope X".
type stepUps struct {
	by lock.Map[string, stepUp]
}

type stepUp struct {
	pending []string
	lacking []string
}

// mark records the union of the token's scopes and the new ones as what
// the next sign-in asks for.
func (s *stepUps) mark(srv model.Server, used *tokenRecord, scopes []string) {
	var have []string
	if used != nil {
		have = used.Scopes
	}
	s.by.Update(stateKey(srv), func(st *stepUp) { st.pending = unionScopes(st.pending, have, scopes) })
}

// pending is what the next sign-in must ask for (nil when no step-up waits).
func (s *stepUps) pending(srv model.Server) []string {
	return slices.Clone(s.by.Get(stateKey(srv)).pending)
}

// clearPending forgets the step-up once a token was obtained for it, or
// the person signed out.
func (s *stepUps) clearPending(srv model.Server) {
	s.by.Update(stateKey(srv), func(st *stepUp) { st.pending = nil })
}

// noteLacking records the scopes a 403 insufficient_scope asked for that
// the token used does not carry (all of them when the token says nothing),
// as the request ends refused.
func (s *stepUps) noteLacking(srv model.Server, used *tokenRecord, challenged []string) {
	var missing []string
	for _, sc := range challenged {
		if used == nil || !slices.Contains(used.Scopes, sc) {
			missing = append(missing, sc)
		}
	}
	if len(missing) == 0 {
		missing = challenged
	}
	s.by.Update(stateKey(srv), func(st *stepUp) { st.lacking = unionScopes(st.lacking, missing) })
}

// lacking is what the last refused request lacked; nil when none.
func (s *stepUps) lacking(srv model.Server) []string {
	return slices.Clone(s.by.Get(stateKey(srv)).lacking)
}

// signedIn forgets what the old sign-in lacked.
func (s *stepUps) signedIn(srv model.Server) {
	s.by.Update(stateKey(srv), func(st *stepUp) { st.lacking = nil })
}

// NeedsStepUp reports the scopes a server asked for with 403
// insufficient_scope that the next Authenticate will request (nil when none).
func (m *Manager) NeedsStepUp(srv model.Server) []string { return m.steps.pending(srv) }

// MissingScopes reports the scopes the server refused a request for (403
// insufficient_scope) that the current sign-in lacks, so that a caller can
// say "sign-in lacks scope X" instead of a bare 403; nil when none. A new
// sign-in clears it.
func (m *Manager) MissingScopes(srv model.Server) []string { return m.steps.lacking(srv) }

// unionScopes merges scope lists keeping first-seen order.
func unionScopes(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		for _, s := range l {
			if s != "" && !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}
