package ui

import (
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"
)

// footerView is the key hints under the screen, fitted to width by
// dropping the least important hints first: the keys are in order of
// importance except that the last ones (help, and quit or cancel) matter
// most, so "? help" stays on a 60-column screen however many actions the
// server offers.
func footerView(h help.Model, keys []key.Binding, width int) string {
	h.Width = 0 // measure whole; this function does the cutting
	const tail = 2
	for len(keys) > tail+1 && ansi.StringWidth(h.ShortHelpView(keys)) > width {
		i := len(keys) - tail - 1 // the least important of the rest
		keys = append(keys[:i:i], keys[i+1:]...)
	}
	h.Width = width
	return h.ShortHelpView(keys)
}

// withHelpKey adds the help key to a prompt's hints ("? help", or "f1
// help" where keys are typed and ? is text): help is reachable from
// anywhere but the help itself.
func (m *Model) withHelpKey(keys []key.Binding) []key.Binding {
	top := m.top()
	switch {
	case top == nil || !helpIsRoots(m):
		return keys
	case top.TakesText():
		return append(keys, key.NewBinding(key.WithKeys("f1"), key.WithHelp("f1", "help")))
	}
	return append(keys, m.keys.Help)
}

// footerKeys are the keys valid for what is on screen: the modal's, the
// filter's while it is typed, else the action table's that the footer
// offers here, in the table's order.
func (m *Model) footerKeys() []key.Binding {
	k := &m.keys
	if top := m.top(); top != nil {
		return top.Help()
	}
	if m.filtering() {
		return []key.Binding{k.FilterKeep, k.FilterClear}
	}
	here, s := m.screen(), m.selected()
	var out []key.Binding
	for _, a := range m.actions {
		if !a.works(m, here) || (a.enabled != nil && (s == nil || !a.allows(s))) || (a.footer != nil && !a.footer(m, s)) {
			continue
		}
		out = append(out, a.footerBinding(k, s))
	}
	return out
}
