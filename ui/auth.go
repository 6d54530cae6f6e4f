package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// authModal shows the sign-in URL of a running Authenticate (the engine puts
// it in the snapshot), in full for copying; o opens it again. It closes by
// itself when the flow ends.
type authModal struct {
	env    *env
	server string
	url    string
	status string
}

func (m *authModal) Help() []key.Binding {
	k := m.env.keys
	hide := key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "hide"))
	return []key.Binding{k.OpenURL, hide}
}

func (m *authModal) Update(msg tea.Msg) (modal, tea.Cmd) {
	switch msg := msg.(type) {
	case openedMsg:
		if msg.err != nil {
			m.status = "could not open a browser: " + msg.err.Error() + " — copy the URL instead"
		} else {
			m.status = "opened in your browser"
		}
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, m.env.keys.OpenURL):
			open, u, ctx := m.env.openURL, m.url, m.env.ctx
			return m, func() tea.Msg { return openedMsg{err: open(ctx, u)} }
		case key.Matches(msg, m.env.keys.Back):
			return nil, nil
		}
	}
	return m, nil
}

func (m *authModal) View(width, height int) string {
	st := m.env.st
	lines := []string{
		st.Heading.Render("Sign in to " + textsafe.SanitizeLine(m.server)), "",
		"Finish signing in in your browser. If it did not open, visit:", "",
	}
	lines = append(lines, urlLines(st, m.url, width-4)...)
	lines = append(lines, "", st.Key.Render("o")+" open in browser  "+st.Key.Render("esc")+" hide (signing in goes on)")
	if m.status != "" {
		lines = append(lines, st.Muted.Render(textsafe.SanitizeLine(m.status)))
	}
	return panel(st, lines, width, height)
}

// syncAuth opens a sign-in panel for every new AuthURL in the snapshot and
// closes the panels whose flow ended.
func (m *Model) syncAuth() {
	urls := map[string]string{}
	for _, s := range m.snap.Servers {
		if s.AuthURL != "" {
			urls[s.Name] = s.AuthURL
		}
	}
	kept := m.modals[:0]
	open := map[string]bool{}
	for _, md := range m.modals {
		if am, ok := md.(*authModal); ok {
			if urls[am.server] == "" {
				continue
			}
			am.url = urls[am.server]
			open[am.server] = true
		}
		kept = append(kept, md)
	}
	m.modals = kept
	for name, u := range urls {
		if !open[name] && m.authShown[name] != u {
			m.authShown[name] = u
			m.modals = append(m.modals, &authModal{env: m.env, server: name, url: u})
		}
	}
}

// authLine is the Overview line for a sign-in in progress.
func authLine(s *engine.ServerSnapshot) string {
	if s.AuthURL == "" {
		return ""
	}
	return "signing in: " + strings.TrimSpace(s.AuthURL)
}
