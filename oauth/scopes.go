package oauth

import (
	"slices"

	"github.com/mcpdeck/mcpdeck/model"
)

// noteLacking records the scopes a 403 insufficient_scope asked for that
// the token used does not carry (all of them when the token says nothing),
// as the request ends refused.
func (st *serverState) noteLacking(used *tokenRecord, challenged []string) {
	var missing []string
	for _, s := range challenged {
		if used == nil || !slices.Contains(used.Scopes, s) {
			missing = append(missing, s)
		}
	}
	if len(missing) == 0 {
		missing = challenged
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	st.lacking = unionScopes(st.lacking, missing)
}

// MissingScopes reports the scopes the server refused a request for (403
// insufficient_scope) that the current sign-in lacks, so that a caller can
// say "sign-in lacks scope X" instead of a bare 403; nil when none. A new
// sign-in clears it.
func (m *Manager) MissingScopes(srv model.Server) []string {
	st := m.state(srv)
	st.mu.Lock()
	defer st.mu.Unlock()
	return slices.Clone(st.lacking)
}
