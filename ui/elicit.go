package ui

import (
	"net/url"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/form"
	"github.com/mcpdeck/mcpdeck/ui/tuikit"
)

// forRequest names the request the input is for (" (for tools/call NAME)"),
// so with several calls running the person knows which one asks.
func forRequest(r engine.ElicitRequest) string {
	if r.Request == "" {
		return ""
	}
	return " (for " + textsafe.SanitizeLine(r.Request) + ")"
}

// newElicitModal returns the prompt for an elicitation request.
func newElicitModal(e *env, el *elicitation) (tuikit.Modal, tea.Cmd) {
	if el.req.Mode == "url" {
		return &urlModal{env: e, el: el}, nil
	}
	sf, err := form.Parse(el.req.Schema)
	if err != nil {
		el.Answer(engine.ElicitResponse{Action: "decline"})
		return nil, nil
	}
	intro := []string{e.St.Muted.Render(textsafe.SanitizeLine(el.req.Server) + " asks" + forRequest(el.req) + ":"), el.req.Message}
	fm := form.New(e.Env, "Request from "+el.req.Server, intro, sf)
	fm.Question = el
	fm.Verb = "accept"
	fm.Submit = func(args map[string]any) (tuikit.Modal, tea.Cmd) {
		el.Answer(engine.ElicitResponse{Action: "accept", Content: args})
		return nil, nil
	}
	fm.Cancel = func() (tuikit.Modal, tea.Cmd) {
		el.Answer(engine.ElicitResponse{Action: "cancel"})
		return nil, nil
	}
	fm.Decline = func() (tuikit.Modal, tea.Cmd) {
		el.Answer(engine.ElicitResponse{Action: "decline"})
		return nil, nil
	}
	return fm, fm.Init()
}

// urlModal is a URL elicitation: the URL is shown in full under its box
// for copying (as a sign-in's is), y copies it, o opens it, enter says
// "done" so the server can continue.
type urlModal struct {
	env    *env
	el     *elicitation
	status string
}

// openedMsg reports the end of an attempt to open a browser; every open
// modal is given it (the one that opened it may be under another).
type openedMsg struct{ err error }

func (openedMsg) Broadcast() {}

func (m *urlModal) TakesText() bool { return false }

// Answers is the elicitation the URL answers.
func (m *urlModal) Answers() any { return m.el }

func (m *urlModal) Help() []key.Binding {
	k := m.env.Keys
	done := key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "done"))
	return []key.Binding{k.CopyURL, k.OpenURL, done, k.Decline, k.Cancel}
}

func (m *urlModal) Update(msg tea.Msg) (tuikit.Modal, tea.Cmd) {
	switch msg := msg.(type) {
	case openedMsg:
		if msg.err != nil {
			m.status = "could not open a browser: " + msg.err.Error() + " — copy the URL instead"
		} else {
			m.status = "opened in your browser; press enter when you are done"
		}
	case tea.KeyMsg:
		k := m.env.Keys
		switch {
		case key.Matches(msg, k.CopyURL):
			m.status = m.env.copyURL(m.el.req.URL)
		case key.Matches(msg, k.OpenURL):
			open, u, ctx := m.env.openURL, m.el.req.URL, m.env.Ctx
			m.status = "opening…"
			return m, func() tea.Msg { return openedMsg{err: open(ctx, u)} }
		case key.Matches(msg, k.Submit):
			m.el.Answer(engine.ElicitResponse{Action: "accept"})
			return nil, nil
		case key.Matches(msg, k.Decline):
			m.el.Answer(engine.ElicitResponse{Action: "decline"})
			return nil, nil
		case key.Matches(msg, k.Cancel):
			m.el.Answer(engine.ElicitResponse{Action: "cancel"})
			return nil, nil
		}
	}
	return m, nil
}

// View is the panel, then the URL under it (panelWithURL), preceded in
// the panel by the site it leads to, which a long URL can hide.
func (m *urlModal) View(width, height int) string {
	st := m.env.St
	u := tuikit.Clean(m.el.req.URL)
	var lines []string
	lines = append(lines, st.Heading.Render(textsafe.SanitizeLine(m.el.req.Server)+" needs you to visit a page"+forRequest(m.el.req)), "")
	lines = append(lines, strings.Split(tuikit.Wrap(tuikit.Clean(m.el.req.Message), max(width-4, 10)), "\n")...)
	lines = append(lines, "")
	if p, err := url.Parse(u); err == nil && p.Host != "" {
		lines = append(lines, "It leads to "+st.Heading.Render(p.Host)+". The URL is under this box: y puts it on your clipboard, also over SSH.")
	} else {
		lines = append(lines, "The URL is under this box: y puts it on your clipboard, also over SSH.")
	}
	lines = append(lines, "", st.Key.Render("y")+" copy URL  "+st.Key.Render("o")+" open in browser  "+st.Key.Render("enter")+" done  "+st.Key.Render("ctrl+d")+" decline  "+st.Key.Render("esc")+" cancel")
	if m.status != "" {
		lines = append(lines, st.Muted.Render(textsafe.SanitizeLine(m.status)))
	}
	return panelWithURL(st, lines, u, width, height)
}
