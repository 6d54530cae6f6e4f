package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
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
			if key.Matches(msg, k.Quit) {
				return m.quit()
			}
		}
		nm, cmd := m.modals[n-1].Update(msg)
		m.setTop(nm)
		return cmd
	}
	if m.detail == nil && m.list.filtering {
		return m.list.Update(msg)
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
	case m.detail != nil && key.Matches(msg, k.Back):
		m.detail = nil
		return nil
	case m.detail == nil && key.Matches(msg, k.Open):
		if s := m.list.Selected(); s != nil {
			m.detail = newDetailView(&m.st, &m.keys, m.now, *s)
			m.detail.SetSize(m.width, m.bodyHeight())
		}
		return nil
	case m.detail != nil && key.Matches(msg, k.Open):
		return m.openFromDetail()
	}
	if a, ok := m.actionFor(msg); ok {
		return m.do(a)
	}
	return m.current().Update(msg)
}

// typesText reports whether keys go to a text field: a form or the filter.
func (m *Model) typesText() bool {
	if n := len(m.modals); n > 0 {
		_, ok := m.modals[n-1].(*formModal)
		return ok
	}
	return m.detail == nil && m.list.filtering
}

// current is the component under the modals: the detail view or the list.
func (m *Model) current() component {
	if m.detail != nil {
		return m.detail
	}
	return &m.list
}

// openFromDetail: enter on a tools/resources/prompts tab acts on the item.
func (m *Model) openFromDetail() tea.Cmd {
	switch m.detail.tab {
	case tabTools:
		return m.do(actCallTool)
	case tabResources:
		return m.do(actReadResource)
	case tabPrompts:
		return m.do(actGetPrompt)
	case tabOverview, tabStderr, tabInstructions, tabSkills, numTabs:
	}
	return nil
}

// actionKey pairs a key with the server action it runs.
type actionKey struct {
	b key.Binding
	a action
}

// actionKeys lists every server action's key, in the order the footer
// shows them; both key matching and the footer read this one table.
func (m *Model) actionKeys() []actionKey {
	k := &m.keys
	return []actionKey{
		{k.Approve, actApprove},
		{k.Reject, actReject},
		{k.Enable, actEnable},
		{k.Disable, actDisable},
		{k.Reconnect, actReconnect},
		{k.CancelRetry, actCancelRetry},
		{k.Authenticate, actAuthenticate},
		{k.CallTool, actCallTool},
		{k.ReadResource, actReadResource},
		{k.GetPrompt, actGetPrompt},
	}
}

// actionFor maps a key to a server action.
func (m *Model) actionFor(msg tea.KeyMsg) (action, bool) {
	for _, p := range m.actionKeys() {
		if key.Matches(msg, p.b) {
			return p.a, true
		}
	}
	return 0, false
}

// do runs an action on the selected server, or says why it cannot.
func (m *Model) do(a action) tea.Cmd {
	s := m.selected()
	if s == nil {
		m.status, m.statusErr = a.String()+": no server selected", true
		return nil
	}
	if ok, why := available(a, *s); !ok {
		m.status, m.statusErr = why, true
		return nil
	}
	switch a {
	case actCallTool:
		if m.detail != nil && m.detail.tab == tabTools {
			return m.push(openToolCall(m.env, s.Name, s.Tools[m.detail.Selection(tabTools)]))
		}
		return m.push(openToolPicker(m.env, s))
	case actReadResource:
		if m.detail != nil && m.detail.tab == tabResources {
			return m.push(openResource(m.env, s, m.detail.Selection(tabResources)))
		}
		return m.push(openResourcePicker(m.env, s))
	case actApprove: // never unseen: the prompt shows the definition and asks once more
		return m.push(&approvalModal{env: m.env, servers: []engine.ServerSnapshot{*s}, one: true}, nil)
	case actGetPrompt:
		if m.detail != nil && m.detail.tab == tabPrompts {
			return m.push(openPrompt(m.env, s.Name, s.Prompts[m.detail.Selection(tabPrompts)]))
		}
		return m.push(openPromptPicker(m.env, s))
	case actEnable, actDisable, actReconnect, actCancelRetry, actAuthenticate, actReject:
	}
	verb := a.String()
	if a == actReconnect && s.State == model.StatePending && !s.NextRetry.IsZero() {
		verb = "retry now"
	}
	m.status = verb + " " + s.Name + "…"
	return engineAction(m.env.ctx, m.env.eng, a, s.Name)
}
