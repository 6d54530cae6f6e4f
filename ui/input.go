package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/ui/tuikit"
)

// selected is the server the actions apply to.
func (m *Model) selected() *engine.ServerSnapshot {
	if m.detail != nil {
		return &m.detail.srv
	}
	return m.list.Selected()
}

// top is the modal on top, nil for none.
func (m *Model) top() tuikit.Modal {
	if n := len(m.modals); n > 0 {
		return m.modals[n-1]
	}
	return nil
}

// push opens a modal on top of the others.
func (m *Model) push(nm tuikit.Modal, cmd tea.Cmd) tea.Cmd {
	if nm != nil {
		m.modals = append(m.modals, nm)
	}
	return cmd
}

// onKey reads a key in the action table, place by place: ctrl+c
// anywhere; then, over a modal, nothing while a prompt is not yet armed
// (ui/promptguard), else what the root keeps there (quit, help) before
// the modal gets the key; else, unless a filter is being typed,
// the actions of the screen, and finally the screen itself (movement).
func (m *Model) onKey(msg tea.KeyMsg) tea.Cmd {
	if a, ok := m.actionFor(msg, anywhere); ok {
		return m.do(a, msg)
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
	if top := m.top(); top != nil {
		if m.heldKey() {
			return nil
		}
		if a, ok := m.actionFor(msg, overModal); ok && (msg.Type != tea.KeyRunes || !top.TakesText()) { // typed letters are text
			return m.do(a, msg)
		}
		nm, cmd := top.Update(msg)
		m.setTop(nm)
		return cmd
	}
	if m.filtering() {
		return m.current().Update(msg)
	}
	m.status, m.statusErr = "", false
	if a, ok := m.actionFor(msg, m.screen()); ok {
		return m.do(a, msg)
	}
	return m.current().Update(msg)
}

// typesText reports whether keys go to a text field: a modal's, or the
// filter.
func (m *Model) typesText() bool {
	if top := m.top(); top != nil {
		return top.TakesText()
	}
	return m.filtering()
}

// filtering reports whether the screen's filter is being typed.
func (m *Model) filtering() bool {
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

// screen is where the screen's actions are read: the list or the detail view.
func (m *Model) screen() reach {
	if m.detail != nil {
		return onDetail
	}
	return onList
}

// actionFor maps a key to the action it runs at r (the table's keys, in
// the table's order).
func (m *Model) actionFor(msg tea.KeyMsg, r reach) (action, bool) {
	for _, a := range m.actions {
		if a.works(m, r) && key.Matches(msg, a.binding(&m.keys)) {
			return a, true
		}
	}
	return action{}, false
}

// do runs an action; one on a server runs on the selected server, one on
// an item on the item selected in the detail view's tab, or the status
// line says why it cannot.
func (m *Model) do(a action, msg tea.KeyMsg) tea.Cmd {
	p := press{a: a, key: msg, item: -1}
	if a.enabled != nil {
		if p.s = m.selected(); p.s == nil {
			m.status, m.statusErr = a.verb+": no server selected", true
			return nil
		}
		if ok, why := a.check(p.s); !ok {
			m.status, m.statusErr = why, true
			return nil
		}
	}
	if item, on, why := m.itemFor(a); on {
		if item < 0 {
			m.status, m.statusErr = a.verb+": nothing selected ("+why+")", true
			return nil
		}
		p.item = item
	}
	return a.run(m, p)
}

// itemFor is the item a acts on: on reports whether a acts on an item of
// the detail view's current tab; item is the one selected there among
// those on screen, or -1 with what the tab shows instead (why).
func (m *Model) itemFor(a action) (item int, on bool, why string) {
	if !a.onItem || m.detail == nil || !a.tabs.has(m.detail.tab) {
		return -1, false, ""
	}
	item, why = m.detail.selected()
	return item, true, why
}

// guardTop starts the prompt guard again when the question on top changed;
// the root calls it after every message.
func (m *Model) guardTop() tea.Cmd {
	var q any
	if top := m.top(); top != nil {
		q = top.Answers()
	}
	return m.guard.Watch(q)
}

// heldKey reports whether a key must not be given to the prompt on top,
// and says so on the status line.
func (m *Model) heldKey() bool {
	held, ok := m.guard.Hold()
	if !ok {
		return false
	}
	m.status, m.statusErr = "a key typed before this prompt was on screen was not given to it", false
	if held > 1 {
		m.status = "keys typed before this prompt was on screen were not given to it"
	}
	return true
}
