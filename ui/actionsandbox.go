package ui

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// canAllowHost: the server runs sandboxed, its proxy refused a connection
// a list entry can allow (the snapshot's refusals, which come from the
// proxy, never from the server's log), and it is defined in the person's
// user or local settings, where the entry can be added.
func canAllowHost(s *engine.ServerSnapshot) (bool, string) {
	_, refused := s.LastRefusal()
	switch {
	case s.Config.Sandbox == nil:
		return false, "server is not sandboxed"
	case !refused && len(s.Refusals) > 0:
		return false, "every host its sandbox refused is allowed now"
	case !refused:
		return false, "no blocked connection yet"
	case s.Scope != model.ScopeUser && s.Scope != model.ScopeLocal:
		return false, "server is defined in the " + s.Scope.String() + " scope; add the host to its sandbox there"
	}
	return true, ""
}

// allowHost adds the newest refused connection's entry to the server's
// sandbox network list, in its user or local settings; the reload
// restarts it.
func allowHost(m *Model, p press) tea.Cmd {
	r, _ := p.s.LastRefusal()
	host := r.Allow
	m.status = "allow " + textsafe.SanitizeLine(host) + " for " + textsafe.SanitizeLine(p.s.Name) + "…"
	eng := m.env.eng
	return m.engineCmd("allow "+host+" for", p.s.Name, func(ctx context.Context, server string) error {
		return eng.AllowSandboxHost(ctx, server, host)
	})
}
