package ui

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/ui/keyhelp"
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

// footerCache is the last footer drawn and what it was drawn from: most
// frames (a snapshot that changes nothing on screen) draw the same one.
type footerCache struct{ key, text string }

// footer is footerView of the keys for what is on screen, drawn again only
// when the keys or the width changed. A prompt not yet armed shows no keys:
// its keys appear when they work (ui/promptguard).
func (m *Model) footer() string {
	if !m.guard.Armed() {
		return ""
	}
	keys := m.withHelpKey(m.footerKeys())
	var b strings.Builder
	b.WriteString(strconv.Itoa(m.width))
	for _, k := range keys {
		h := k.Help()
		b.WriteString("\x00" + h.Key + "\x00" + h.Desc + "\x00" + strconv.FormatBool(k.Enabled()))
	}
	if key := b.String(); key != m.footerDrawn.key {
		m.footerDrawn = footerCache{key: key, text: footerView(keyhelp.New(&m.st), keys, m.width)}
	}
	return m.footerDrawn.text
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
// offers here, in the table's order except that on the detail view the
// keys of the tab on screen come first (footerView drops from the end).
func (m *Model) footerKeys() []key.Binding {
	k := &m.keys
	if top := m.top(); top != nil {
		return top.Help()
	}
	if m.filtering() {
		return []key.Binding{k.FilterKeep, k.FilterClear}
	}
	s := m.selected()
	var tab, rest []key.Binding
	for _, a := range m.actions {
		switch mine, ok := m.offers(a, s); {
		case ok && mine:
			tab = append(tab, a.footerBinding(k, s))
		case ok:
			rest = append(rest, a.footerBinding(k, s))
		}
	}
	return append(tab, rest...)
}

// offers reports whether the footer offers a here (ok): its key works,
// it can run on s, its footer test passes, and on the detail view it
// belongs to the tab on screen or to none (c is not offered in the
// Resources tab), with an item to act on. mine: a belongs to that tab.
func (m *Model) offers(a action, s *engine.ServerSnapshot) (mine, ok bool) {
	if !a.works(m, m.screen()) || (a.enabled != nil && (s == nil || !a.allows(s))) || (a.footer != nil && !a.footer(m, s)) {
		return false, false
	}
	if m.detail == nil || a.tabs == 0 {
		return false, true
	}
	if item, on, _ := m.itemFor(a); on && item < 0 {
		return false, false // nothing selected: the key would say so
	}
	mine = a.tabs.has(m.detail.tab)
	return mine, mine
}
