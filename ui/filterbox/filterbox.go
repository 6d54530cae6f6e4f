// Package filterbox is the one "/" filter of the TUI, shared by the server
// list, the detail view's tabs and the pickers.
package filterbox

import (
	"cmp"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/mcpdeck/mcpdeck/ui/styles"
	"github.com/mcpdeck/mcpdeck/ui/tuikit"
)

// Box is the one "/" filter of the TUI: the server list, the detail
// view's tools, resources and prompts, and the pickers all use it. While it
// is active, letters are text; enter keeps the filter, esc clears it, the
// arrows still move. "/" on a kept filter shows it selected, as a search
// box does: typing replaces it, backspace and the cursor keys edit it.
type Box struct {
	keys   *tuikit.Keys
	input  textinput.Model
	active bool
	// replace is set while a kept filter, opened again, is selected: the
	// next text typed replaces it rather than being appended to it.
	replace bool
	text    lipgloss.Style // the query as typed
	chosen  lipgloss.Style // the query while replace is set
}

// New is an inactive filter drawing its hint as placeholder.
func New(st *styles.Styles, keys *tuikit.Keys, placeholder string) Box {
	ti := tuikit.NewTextInput()
	ti.Prompt = "/"
	ti.Placeholder = placeholder
	return Box{keys: keys, input: ti, text: ti.TextStyle, chosen: st.Selected}
}

// SetPlaceholder changes the hint shown while nothing is typed.
func (f *Box) SetPlaceholder(p string) { f.input.Placeholder = p }

// Start focuses the filter; a kept query is selected (replace).
func (f *Box) Start() tea.Cmd {
	f.active = true
	f.setSelected(f.input.Value() != "")
	f.input.CursorEnd()
	return f.input.Focus()
}

// setSelected sets whether the query is selected, and draws it so.
func (f *Box) setSelected(on bool) {
	f.replace = on
	f.input.TextStyle = f.text
	if on {
		f.input.TextStyle = f.chosen
	}
}

// Active reports whether keys go to the filter.
func (f *Box) Active() bool { return f.active }

// Shown reports whether the filter line is on screen (typing, or kept).
func (f *Box) Shown() bool { return f.active || f.input.Value() != "" }

// rank is where the query matches texts, case-folded: the index of the
// first text that contains it (a name before a description), -1 when
// none does; everything matches an empty query, at 0.
func (f *Box) rank(texts ...string) int {
	q := strings.ToLower(f.input.Value())
	if q == "" {
		return 0
	}
	for i, t := range texts {
		if strings.Contains(strings.ToLower(t), q) {
			return i
		}
	}
	return -1
}

// Matches reports whether any of texts contains the query (case-folded);
// everything matches an empty query.
func (f *Box) Matches(texts ...string) bool { return f.rank(texts...) >= 0 }

// Pick lists which of n items the filter shows, best first: those whose
// name (the first of texts(i)) matches before those that match only by a
// later text (the description), each group in the items' order, so the
// cursor, at the top after a change, is on the best match. It is nil when
// no filter is shown (everything is), empty when nothing matches.
func (f *Box) Pick(n int, texts func(i int) []string) []int {
	if !f.Shown() {
		return nil
	}
	type hit struct{ i, rank int }
	hits := make([]hit, 0, n)
	for i := range n {
		if r := f.rank(texts(i)...); r >= 0 {
			hits = append(hits, hit{i, r})
		}
	}
	slices.SortStableFunc(hits, func(a, b hit) int { return cmp.Compare(a.rank, b.rank) })
	out := make([]int, len(hits))
	for j, h := range hits {
		out[j] = h.i
	}
	return out
}

// Clear empties and leaves the filter; it reports whether there was a query.
func (f *Box) Clear() bool {
	had := f.input.Value() != ""
	f.active = false
	f.setSelected(false)
	f.input.Blur()
	f.input.SetValue("")
	return had
}

// SetWidth fits the input to w columns.
func (f *Box) SetWidth(w int) { f.input.Width = max(w-2, 1) }

// Update takes a key while the filter is active. It reports whether the
// query changed, and whether the key was the filter's (the arrows are not:
// the caller moves its cursor).
func (f *Box) Update(msg tea.Msg) (changed, used bool, cmd tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		f.input, cmd = f.input.Update(msg)
		return false, true, cmd
	}
	switch {
	case key.Matches(km, f.keys.FilterKeep):
		f.active = false
		f.setSelected(false)
		f.input.Blur()
		return false, true, nil
	case key.Matches(km, f.keys.FilterClear):
		return f.Clear(), true, nil
	case key.Matches(km, f.keys.FilterUp), key.Matches(km, f.keys.FilterDown):
		return false, false, nil
	}
	before := f.input.Value()
	if f.replace && (km.Type == tea.KeyRunes || km.Type == tea.KeySpace) {
		f.input.SetValue("") // typed text replaces the selected query
	}
	f.setSelected(false)
	f.input, cmd = f.input.Update(msg)
	return f.input.Value() != before, true, cmd
}

// View is the filter line.
func (f *Box) View() string { return f.input.View() }
