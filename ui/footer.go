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
// help" in a form, where ? is typed): help is reachable from anywhere.
func (m *Model) withHelpKey(keys []key.Binding) []key.Binding {
	if n := len(m.modals); n > 0 {
		switch m.modals[n-1].(type) {
		case *helpModal:
			return keys
		case *formModal:
			return append(keys, key.NewBinding(key.WithKeys("f1"), key.WithHelp("f1", "help")))
		}
		return append(keys, m.keys.Help)
	}
	return keys
}
