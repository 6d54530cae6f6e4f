package form

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/tuikit"
)

// suggestListMax is how many suggestions the list shows at once.
const suggestListMax = 5

// suggestList is what ctrl+e opens on an empty text field: the server's
// suggestions for it, one a line (with nothing typed there is nothing to
// complete, so it offers them all); the highlighted one is taken into the
// field as if typed.
type suggestList struct {
	values []string
	at     int
}

// openSuggestions opens the list when km is the complete key on an empty
// text field that has suggestions, and reports whether it took the key:
// on an empty field without any it says so (hint) instead, as a key that
// does nothing would leave the person guessing.
func (m *Modal) openSuggestions(km tea.KeyMsg) bool {
	ff := m.form.GetFocusedField()
	if !key.Matches(km, m.env.Keys.Complete) || ff == nil {
		return false
	}
	f, values := m.fieldNamed(ff.GetKey()), m.suggested[ff.GetKey()]
	if f == nil || f.input == nil || f.str != "" {
		return false
	}
	if len(values) == 0 {
		m.hint = "no suggestions for " + textsafe.SanitizeLine(f.name)
		return true
	}
	m.suggest = &suggestList{values: values}
	m.resize()
	return true
}

// updateSuggestions is a key pressed while the list is open: the arrows
// move (round), enter takes the highlighted suggestion, esc closes the
// list (the form stays). Any other key closes it and goes on to the form
// (used false), so typing is never lost.
func (m *Modal) updateSuggestions(km tea.KeyMsg) (_ tuikit.Modal, _ tea.Cmd, used bool) {
	k, l := m.env.Keys, m.suggest
	switch {
	case key.Matches(km, k.SuggestUp):
		l.at = (l.at + len(l.values) - 1) % len(l.values)
	case key.Matches(km, k.SuggestDown):
		l.at = (l.at + 1) % len(l.values)
	case key.Matches(km, k.SuggestTake):
		m.closeSuggestions()
		next, cmd := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(l.values[l.at])})
		return next, cmd, true
	case key.Matches(km, k.SuggestClose):
		m.closeSuggestions()
	default:
		m.closeSuggestions()
		return m, nil, false
	}
	return m, nil, true
}

func (m *Modal) closeSuggestions() {
	m.suggest = nil
	m.resize()
}

// suggestHelp is the footer while the list is open.
func (m *Modal) suggestHelp() []key.Binding {
	k := m.env.Keys
	move := key.NewBinding(key.WithKeys(append(k.SuggestUp.Keys(), k.SuggestDown.Keys()...)...),
		key.WithHelp(k.SuggestUp.Help().Key+"/"+k.SuggestDown.Help().Key, "choose"))
	return []key.Binding{move, k.SuggestTake, k.SuggestClose}
}

// suggestLines draws the open list in at most width columns: a window of
// suggestListMax around the highlighted one, which is marked.
func (m *Modal) suggestLines(width int) []string {
	l := m.suggest
	head := "suggestions:"
	if len(l.values) > suggestListMax {
		head = fmt.Sprintf("suggestions (%d of %d):", l.at+1, len(l.values))
	}
	out := []string{m.env.St.Muted.Render(head)}
	from := max(0, min(l.at-suggestListMax/2, len(l.values)-suggestListMax))
	for i := from; i < min(from+suggestListMax, len(l.values)); i++ {
		line, style := "  "+textsafe.SanitizeLine(l.values[i]), m.env.St.Text
		if i == l.at {
			line, style = "› "+textsafe.SanitizeLine(l.values[i]), m.env.St.Selected
		}
		out = append(out, style.Render(ansi.Truncate(line, max(width, 10), "…")))
	}
	return out
}
