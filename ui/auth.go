package ui

import (
	"net/url"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/status"
	"github.com/mcpdeck/mcpdeck/ui/styles"
	"github.com/mcpdeck/mcpdeck/ui/tuikit"
)

// authModal shows the sign-in URL of a running Authenticate (the engine puts
// it in the snapshot) in full for copying: below its box, with no border or
// indent around it, and on the clipboard with y; o opens it again. It says
// how to finish on a machine without a browser, and closes by itself when
// the flow ends.
type authModal struct {
	env    *env
	server string
	url    string
	status string
}

// signIn names a server's sign-in: what its panel answers.
type signIn string

// signInMsg gives a sign-in panel its flow's current URL; "" means the
// flow ended and the panel closes.
type signInMsg struct{ url string }

func (m *authModal) TakesText() bool { return false }

func (m *authModal) Answers() any { return signIn(m.server) }

func (m *authModal) Help() []key.Binding {
	k := m.env.Keys
	hide := key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "hide"))
	return []key.Binding{k.CopyURL, k.OpenURL, hide}
}

func (m *authModal) Update(msg tea.Msg) (tuikit.Modal, tea.Cmd) {
	switch msg := msg.(type) {
	case signInMsg:
		if msg.url == "" {
			return nil, nil
		}
		m.url = msg.url
	case openedMsg:
		if msg.err != nil {
			m.status = "could not open a browser: " + msg.err.Error() + " — copy the URL instead (y)"
		} else {
			m.status = "opened in your browser"
		}
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, m.env.Keys.CopyURL):
			m.status = m.env.copyURL(m.url)
		case key.Matches(msg, m.env.Keys.OpenURL):
			open, u, ctx := m.env.openURL, m.url, m.env.Ctx
			return m, func() tea.Msg { return openedMsg{err: open(ctx, u)} }
		case key.Matches(msg, m.env.Keys.Back):
			return nil, nil
		}
	}
	return m, nil
}

// View is the panel, then the URL under it, unbroken but where the screen
// ends: a line of its own from the first column, so that selecting it
// picks up no border, indent or other text.
func (m *authModal) View(width, height int) string {
	st := m.env.St
	u := tuikit.Clean(m.url)
	leads := ""
	if p, err := url.Parse(u); err == nil && p.Host != "" {
		leads = " It leads to " + st.Heading.Render(p.Host) + "."
	}
	lines := []string{
		st.Heading.Render("Sign in to " + textsafe.SanitizeLine(m.server)), "",
		"Finish signing in in your browser." + leads + " If it did not open, copy the URL under this box: y puts it on your clipboard, also over SSH.", "",
		st.Muted.Render(status.SignInElsewhere(u)), "",
		st.Key.Render("y") + " copy URL  " + st.Key.Render("o") + " open in browser  " + st.Key.Render("esc") + " hide (signing in goes on)",
	}
	if m.status != "" {
		lines = append(lines, st.Muted.Render(textsafe.SanitizeLine(m.status)))
	}
	return panelWithURL(st, lines, u, width, height)
}

// panelWithURL is a panel of lines with the URL u (cleaned) under it,
// unbroken but where the screen ends: a line of its own from the first
// column, so that selecting it picks up no border, indent or other text.
func panelWithURL(st *styles.Styles, lines []string, u string, width, height int) string {
	shown := strings.Split(ansi.Hardwrap(u, max(width, 10), false), "\n")
	box := tuikit.Panel(st, lines, width, max(height-len(shown), 5))
	for i, l := range shown {
		shown[i] = st.Accent.Render(l)
	}
	return box + "\n" + strings.Join(shown, "\n")
}

// copyURL puts u (cleaned) on the clipboard and words what happened for a
// panel's status line.
func (e *env) copyURL(u string) string {
	if err := e.copyText(textsafe.SanitizeLine(u)); err != nil {
		return "could not copy the URL: " + err.Error() + " — select it below the box instead"
	}
	return "copied the URL: your terminal put it on the clipboard (in tmux, that needs set-clipboard on)"
}

// syncAuth opens a sign-in panel for every new AuthURL in the snapshot,
// gives the open panels their flow's URL and closes those whose flow ended.
func (m *Model) syncAuth() {
	urls := map[string]string{}
	for _, s := range m.snap.Servers {
		if s.AuthURL != "" {
			urls[s.Name] = s.AuthURL
		}
	}
	for _, md := range slices.Clone(m.modals) {
		if name, ok := md.Answers().(signIn); ok {
			m.tell(name, signInMsg{url: urls[string(name)]})
		}
	}
	for name, u := range urls {
		if m.modalFor(signIn(name)) < 0 && m.authShown[name] != u {
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
