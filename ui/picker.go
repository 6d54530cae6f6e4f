package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/tuikit"
)

// pickItem is one choice of a picker.
type pickItem struct{ label, desc string }

// pickerModal chooses a tool, resource or prompt; "/" filters the choices
// with the TUI's one filter (filterBox).
type pickerModal struct {
	env    *env
	title  string
	items  []pickItem
	cursor int // position among the shown items
	offset int
	pick   func(i int) (tuikit.Modal, tea.Cmd) // i indexes items
	filter filterBox
	shown  []int // items matching the filter, nil: all
}

// newPicker is a picker of items for e; pick receives the chosen item's
// index in items.
func newPicker(e *env, title string, items []pickItem, pick func(i int) (tuikit.Modal, tea.Cmd)) *pickerModal {
	return &pickerModal{env: e, title: title, items: items, pick: pick, filter: newFilterBox(e.St, e.Keys, "filter by name or description")}
}

// TakesText: the filter is typed.
func (p *pickerModal) TakesText() bool { return p.filter.Active() }

func (p *pickerModal) Answers() any { return nil }

func (p *pickerModal) Help() []key.Binding {
	k := p.env.Keys
	if p.filter.Active() {
		return []key.Binding{k.FilterKeep, k.FilterClear}
	}
	return []key.Binding{k.Up, k.Down, k.Open, k.Filter, k.Back, k.Quit}
}

func (p *pickerModal) count() int {
	if p.shown != nil {
		return len(p.shown)
	}
	return len(p.items)
}

func (p *pickerModal) index(pos int) int {
	if p.shown != nil {
		return p.shown[pos]
	}
	return pos
}

// nothingPicked is enter on a picker whose filter shows nothing: the
// status line says so, as for every key with nothing selected.
type nothingPicked string

func (n nothingPicked) Report() (string, bool) {
	return string(n) + ": nothing selected (nothing matches the filter)", true
}

// refilter recomputes the choices the filter shows, best first, and puts
// the cursor on the first.
func (p *pickerModal) refilter() {
	p.shown = p.filter.Pick(len(p.items), func(i int) []string { return []string{p.items[i].label, p.items[i].desc} })
	p.cursor, p.offset = 0, 0
}

func (p *pickerModal) Update(msg tea.Msg) (tuikit.Modal, tea.Cmd) {
	if p.filter.Active() {
		changed, used, cmd := p.filter.Update(msg)
		if changed {
			p.refilter()
		}
		if used {
			return p, cmd
		}
	}
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return p, nil
	}
	k := p.env.Keys
	_, h := p.env.BodySize()
	per := max((h-2)/2, 1)
	delta, scroll := k.ScrollBy(km, per)
	switch {
	case key.Matches(km, k.Filter):
		return p, p.filter.Start()
	case key.Matches(km, k.Back) && p.filter.Shown():
		p.filter.Clear()
		p.refilter()
		return p, nil
	case key.Matches(km, k.Back):
		return nil, nil
	case key.Matches(km, k.Open):
		if p.count() == 0 {
			return p, func() tea.Msg { return nothingPicked(p.title) }
		}
		return p.pick(p.index(p.cursor))
	case scroll:
		p.cursor += delta
	}
	p.cursor = max(0, min(p.cursor, p.count()-1))
	if p.cursor < p.offset {
		p.offset = p.cursor
	}
	if p.cursor >= p.offset+per {
		p.offset = p.cursor - per + 1
	}
	return p, nil
}

func (p *pickerModal) View(width, height int) string {
	st := p.env.St
	var b strings.Builder
	b.WriteString(st.Heading.Render(textsafe.SanitizeLine(p.title)))
	if p.filter.Shown() {
		b.WriteString("\n" + p.filter.View())
		height--
	}
	if p.count() == 0 {
		b.WriteString("\n" + st.Muted.Render("nothing matches the filter"))
		return b.String()
	}
	per := max((height-2)/2, 1)
	for pos := p.offset; pos < min(p.offset+per, p.count()); pos++ {
		item := p.items[p.index(pos)]
		it := pickItem{label: textsafe.SanitizeLine(item.label), desc: textsafe.SanitizeLine(tuikit.FirstLine(item.desc))}
		b.WriteString("\n")
		if pos == p.cursor {
			b.WriteString("› " + st.Selected.Render(it.label))
		} else {
			b.WriteString("  " + it.label)
		}
		b.WriteString("\n    " + st.Muted.Render(tuikit.FirstLine(it.desc)))
	}
	return b.String()
}
