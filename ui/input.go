package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/engine"
)

// selected is the server the actions apply to.
func (m *Model) selected() *engine.ServerSnapshot {
	if m.detail != nil {
		return &m.detail.srv
	}
	return m.list.Selected()
}

// quit cancels the pending prompts and every engine action, and ends the program.
func (m *Model) quit() tea.Cmd {
	for _, md := range m.modals {
		if e := elicitOf(md); e != nil {
			e.answer(engine.ElicitResponse{Action: "cancel"})
		}
	}
	m.cancel()
	return tea.Quit
}

// push opens a modal on top of the others.
func (m *Model) push(nm modal, cmd tea.Cmd) tea.Cmd {
	if nm != nil {
		m.modals = append(m.modals, nm)
	}
	return cmd
}

// onKey: ctrl+c always quits; otherwise the top modal, the filter, the
// global keys, the server actions and finally the current component.
func (m *Model) onKey(msg tea.KeyMsg) tea.Cmd {
	k := &m.keys
	if key.Matches(msg, k.ForceQuit) {
		return m.quit()
	}
	if msg.Type == tea.KeyRunes && len(msg.Runes) > 1 && !msg.Paste && !m.typesText() {
		// keys typed faster than the terminal is read ("jj", "/calc") arrive
		// as one message: take them one at a time, as they were meant
		cmds := make([]tea.Cmd, 0, len(msg.Runes))
		for _, r := range msg.Runes {
			cmds = append(cmds, m.onKey(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: msg.Alt}))
		}
		return tea.Batch(cmds...)
	}
	if n := len(m.modals); n > 0 {
		switch m.modals[n-1].(type) {
		case *helpModal, *resultModal, *pickerModal: // no text input: q still quits
			if key.Matches(msg, k.Quit) && !m.typesText() {
				return m.quit()
			}
		}
		if wantsHelp(m.modals[n-1], msg, k, m.typesText()) {
			m.modals = append(m.modals, &helpModal{env: m.env, notices: m.notices(), prompt: m.modals[n-1].Help()})
			return nil
		}
		nm, cmd := m.modals[n-1].Update(msg)
		m.setTop(nm)
		return cmd
	}
	if m.detail == nil && m.list.filter.Active() {
		return m.list.Update(msg)
	}
	if m.detail != nil && m.detail.filter.Active() {
		return m.detail.Update(msg)
	}
	m.status, m.statusErr = "", false
	switch {
	case key.Matches(msg, k.Quit):
		return m.quit()
	case key.Matches(msg, k.Help):
		m.modals = append(m.modals, &helpModal{env: m.env, notices: m.notices()})
		return nil
	case key.Matches(msg, k.Reload):
		eng, ctx := m.env.eng, m.env.ctx
		m.status = "reloading the configuration…"
		return func() tea.Msg { return actionMsg{verb: "reload", server: "config", err: eng.Reload(ctx)} }
	case m.detail == nil && key.Matches(msg, k.AddServer):
		return m.openRegistrySearch()
	case m.detail != nil && key.Matches(msg, k.Back):
		if !m.detail.clearFilter() { // esc clears a kept filter first
			m.detail = nil
		}
		return nil
	case m.detail == nil && key.Matches(msg, k.Open):
		if s := m.list.Selected(); s != nil {
			m.detail = newDetailView(&m.st, &m.keys, m.now, *s)
			m.detail.costs = m.costs
			m.detail.SetSize(m.width, m.bodyHeight())
		}
		return nil
	case m.detail != nil && key.Matches(msg, k.Open):
		return m.openFromDetail()
	case m.detail != nil && m.detail.tab == tabLogs && key.Matches(msg, k.LogLevel):
		return m.cycleLogLevel()
	}
	if a, ok := m.actionFor(msg); ok {
		return m.do(a)
	}
	return m.current().Update(msg)
}

// typesText reports whether keys go to a text field: a form or the filter.
func (m *Model) typesText() bool {
	if n := len(m.modals); n > 0 {
		switch md := m.modals[n-1].(type) {
		case *formModal:
			return true
		case *pickerModal:
			return md.filter.Active()
		case *sampleModal:
			return md.editor != nil
		case *registrySearchModal:
			return !md.inList
		}
		return false
	}
	if m.detail != nil {
		return m.detail.filter.Active()
	}
	return m.list.filter.Active()
}

// current is the component under the modals: the detail view or the list.
func (m *Model) current() component {
	if m.detail != nil {
		return m.detail
	}
	return &m.list
}

// openFromDetail: enter on a tools/resources/prompts tab acts on the
// item; on the traffic tab it shows the frame.
func (m *Model) openFromDetail() tea.Cmd {
	if m.detail.tab == tabTraffic {
		m.openFrame()
		return nil
	}
	verbs := map[detailTab]string{tabTools: "call tool", tabResources: "read resource", tabPrompts: "get prompt"}
	if a, ok := actionByVerb(verbs[m.detail.tab]); ok {
		return m.do(a)
	}
	return nil
}

// actionFor maps a key to the server action it runs (the table's keys).
func (m *Model) actionFor(msg tea.KeyMsg) (serverAction, bool) {
	for _, a := range serverActions() {
		if key.Matches(msg, a.key(&m.keys)) {
			return a, true
		}
	}
	return serverAction{}, false
}

// do runs an action on the selected server, or says why it cannot.
func (m *Model) do(a serverAction) tea.Cmd {
	s := m.selected()
	if s == nil {
		m.status, m.statusErr = a.verb+": no server selected", true
		return nil
	}
	if ok, why := a.check(s); !ok {
		m.status, m.statusErr = why, true
		return nil
	}
	return a.run(m, s, a)
}

// wantsHelp reports whether msg asks for help inside the prompt md: ? where
// keys are not text, f1 anywhere (where keys are typed, ? is a character).
func wantsHelp(md modal, msg tea.KeyMsg, k *KeyMap, typing bool) bool {
	if _, isHelp := md.(*helpModal); isHelp || !key.Matches(msg, k.Help) {
		return false
	}
	return !typing || msg.String() != "?"
}
