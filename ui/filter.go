package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpdeck/mcpdeck/ui/tuikit"
)

// filterBox is the one "/" filter of the TUI: the server list, the detail
// view's tools, resources and prompts, and the pickers all use it. While it
// is active, letters are text; enter keeps the filter, esc clears it, the
// arrows still move.
type filterBox struct {
	keys   *tuikit.Keys
	input  textinput.Model
	active bool
}

func newFilterBox(keys *tuikit.Keys, placeholder string) filterBox {
	ti := textinput.New()
	ti.Prompt = "/"
	ti.Placeholder = placeholder
	return filterBox{keys: keys, input: ti}
}

// Start focuses the filter.
func (f *filterBox) Start() tea.Cmd {
	f.active = true
	return f.input.Focus()
}

// Active reports whether keys go to the filter.
func (f *filterBox) Active() bool { return f.active }

// Shown reports whether the filter line is on screen (typing, or kept).
func (f *filterBox) Shown() bool { return f.active || f.input.Value() != "" }

// Matches reports whether any of texts contains the query (case-folded);
// everything matches an empty query.
func (f *filterBox) Matches(texts ...string) bool {
	q := strings.ToLower(f.input.Value())
	if q == "" {
		return true
	}
	for _, t := range texts {
		if strings.Contains(strings.ToLower(t), q) {
			return true
		}
	}
	return false
}

// Clear empties and leaves the filter; it reports whether there was a query.
func (f *filterBox) Clear() bool {
	had := f.input.Value() != ""
	f.active = false
	f.input.Blur()
	f.input.SetValue("")
	return had
}

// SetWidth fits the input to w columns.
func (f *filterBox) SetWidth(w int) { f.input.Width = max(w-2, 1) }

// Update takes a key while the filter is active. It reports whether the
// query changed, and whether the key was the filter's (the arrows are not:
// the caller moves its cursor).
func (f *filterBox) Update(msg tea.Msg) (changed, used bool, cmd tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		f.input, cmd = f.input.Update(msg)
		return false, true, cmd
	}
	switch {
	case key.Matches(km, f.keys.FilterKeep):
		f.active = false
		f.input.Blur()
		return false, true, nil
	case key.Matches(km, f.keys.FilterClear):
		return f.Clear(), true, nil
	case key.Matches(km, f.keys.FilterUp), key.Matches(km, f.keys.FilterDown):
		return false, false, nil
	}
	before := f.input.Value()
	f.input, cmd = f.input.Update(msg)
	return f.input.Value() != before, true, cmd
}

// View is the filter line.
func (f *filterBox) View() string { return f.input.View() }
